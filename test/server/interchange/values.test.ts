import { describe, expect, it } from 'vitest';
import { checkUrl, cleanPath, cleanTags, dateToMs, epochToMs } from '../../../server/interchange/values.ts';

describe('epochToMs', () => {
  it.each([
    ['1466010266', 1466010266000],
    ['1466010266123', 1466010266123],
    ['1466010266123456', 1466010266123],
    [' 1466010266 ', 1466010266000],
    ['631152000', Date.UTC(1990, 0, 1)],
    ['631151999', null],
    ['4102444800', Date.UTC(2100, 0, 1)],
    ['4102444801', null],
    ['0', null],
    ['-1466010266', null],
    ['1e9', null],
    ['', null],
    [undefined, null],
  ] as const)('%s -> %s', (raw, expected) => {
    expect(epochToMs(raw)).toBe(expected);
  });
});

describe('dateToMs', () => {
  it('reads ISO 8601 of any year, and epoch numbers by magnitude', () => {
    expect(dateToMs('2016-06-15T17:04:26.123Z')).toBe(1466010266123);
    expect(dateToMs('1969-12-31T00:00:00.000Z')).toBe(-86_400_000);
    expect(dateToMs('1600000000')).toBe(1600000000000);
    expect(dateToMs('soon')).toBeNull();
    expect(dateToMs('')).toBeNull();
  });
});

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
    ['www.example.com', 'invalid URL "www.example.com"'],
    ['https://exa mple.com/', 'invalid URL "https://exa mple.com/"'],
    ['', 'missing URL'],
  ])('rejects %s', (raw, reason) => {
    expect(checkUrl(raw)).toEqual({ ok: false, reason });
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
