import { describe, expect, it } from 'vitest';
import { checkUrl, cleanPath, cleanTags } from '../../../server/interchange/values.ts';

describe('checkUrl', () => {
  it('keeps web URLs as written, only trimmed', () => {
    expect(checkUrl('  HTTPS://Example.com/a b?x=1#f  ')).toEqual({ ok: true, url: 'HTTPS://Example.com/a b?x=1#f' });
    expect(checkUrl('ftp://files.example/')).toEqual({ ok: true, url: 'ftp://files.example/' });
  });

  it.each([
    ['javascript:void(0)', 'unsupported URL scheme "javascript:"'],
    ['JavaScript:void(0)', 'unsupported URL scheme "javascript:"'],
    ['file:///etc/passwd', 'unsupported URL scheme "file:"'],
    ['mailto:a@b.c', 'unsupported URL scheme "mailto:"'],
    ['www.example.com', 'invalid URL "www.example.com"', 'invalid URL'],
    ['https://exa mple.com/', 'invalid URL "https://exa mple.com/"', 'invalid URL'],
    ['', 'missing URL'],
  ])('rejects %s', (raw, reason, group?: string) => {
    expect(checkUrl(raw)).toEqual({ ok: false, reason, ...(group === undefined ? {} : { group }) });
  });
});

describe('name normalisation', () => {
  it('trims, drops empty and duplicate tags, keeps hierarchy', () => {
    expect(cleanTags([' dev/js ', '', 'dev/js', 'Dev/JS', '  '])).toEqual(['dev/js', 'Dev/JS']);
  });

  it('trims path segments and drops empty ones', () => {
    expect(cleanPath([' a ', '', 'b'])).toEqual(['a', 'b']);
  });
});
