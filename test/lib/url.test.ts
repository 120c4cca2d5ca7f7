import { describe, expect, it } from 'vitest';
import { TRACKING_PARAMS, domainOf, normaliseUrl } from '../../lib/url.ts';

describe('normaliseUrl', () => {
  it.each([
    // scheme and host
    ['https://Example.COM/Path', 'example.com/Path'],
    ['HTTP://EXAMPLE.COM/a', 'example.com/a'],
    ['  https://example.com/a  ', 'example.com/a'],
    // www
    ['https://www.example.com/a', 'example.com/a'],
    ['https://WWW.Example.com/a', 'example.com/a'],
    ['https://www2.example.com/a', 'www2.example.com/a'],
    ['https://sub.www.example.com/a', 'sub.www.example.com/a'],
    ['https://wwwexample.com/a', 'wwwexample.com/a'],
    // ports
    ['http://example.com:80/a', 'example.com/a'],
    ['https://example.com:443/a', 'example.com/a'],
    ['http://example.com:8080/a', 'example.com:8080/a'],
    ['https://example.com:80/a', 'example.com:80/a'],
    // fragment
    ['https://example.com/a#section', 'example.com/a'],
    ['https://example.com/a?x=1#frag?y=2', 'example.com/a?x=1'],
    ['https://example.com/#', 'example.com'],
    // trailing slash
    ['https://example.com/', 'example.com'],
    ['https://example.com', 'example.com'],
    ['https://example.com/dir/', 'example.com/dir'],
    ['https://example.com/dir/?q=1', 'example.com/dir?q=1'],
    // credentials never reach the key
    ['https://user:secret@example.com/a', 'example.com/a'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseUrl(input)).toBe(expected);
  });

  it('treats http and https as the same page', () => {
    expect(normaliseUrl('http://example.com/a?b=1')).toBe(normaliseUrl('https://www.example.com/a/?b=1#top'));
  });

  it('keeps path case, since paths are case-sensitive', () => {
    expect(normaliseUrl('https://example.com/A')).not.toBe(normaliseUrl('https://example.com/a'));
  });

  describe('query', () => {
    it('removes utm_* parameters of any name, case-insensitively', () => {
      expect(normaliseUrl('https://example.com/a?utm_source=x&UTM_Medium=y&utm_anything_new=z&id=7')).toBe(
        'example.com/a?id=7',
      );
    });

    it.each(TRACKING_PARAMS.map((p) => [p]))('removes %s', (param) => {
      expect(normaliseUrl(`https://example.com/a?${param}=abc&keep=1`)).toBe('example.com/a?keep=1');
    });

    it('drops the ? when every parameter was tracking', () => {
      expect(normaliseUrl('https://example.com/a?utm_source=x&fbclid=1')).toBe('example.com/a');
      expect(normaliseUrl('https://example.com/?gclid=1')).toBe('example.com');
    });

    it('drops an empty query and empty pieces', () => {
      expect(normaliseUrl('https://example.com/a?')).toBe('example.com/a');
      expect(normaliseUrl('https://example.com/a?&&b=2&&a=1&')).toBe('example.com/a?a=1&b=2');
    });

    it('sorts by key and keeps values', () => {
      expect(normaliseUrl('https://example.com/s?q=cats&page=2&lang=en')).toBe('example.com/s?lang=en&page=2&q=cats');
      expect(normaliseUrl('https://example.com/s?b=2&a=1')).toBe(normaliseUrl('https://example.com/s?a=1&b=2'));
    });

    it('keeps repeated parameters in their original relative order (stable sort)', () => {
      expect(normaliseUrl('https://example.com/s?id=3&z=0&id=1&id=2')).toBe('example.com/s?id=3&id=1&id=2&z=0');
      expect(normaliseUrl('https://example.com/s?id=1&id=2')).not.toBe(normaliseUrl('https://example.com/s?id=2&id=1'));
    });

    it('keeps valueless and empty-valued parameters distinct', () => {
      expect(normaliseUrl('https://example.com/s?flag&x=')).toBe('example.com/s?flag&x=');
    });

    it('keeps the value encoding the page used', () => {
      expect(normaliseUrl('https://example.com/s?path=a/b&q=a+b&r=%2F')).toBe('example.com/s?path=a/b&q=a+b&r=%2F');
    });

    it('does not strip generic names that carry meaning on most sites', () => {
      expect(normaliseUrl('https://github.com/o/r/blob/x?ref=main')).toBe('github.com/o/r/blob/x?ref=main');
      expect(normaliseUrl('https://example.com/a?si=1')).toBe('example.com/a?si=1');
    });

    it('strips host-specific share ids only on their hosts', () => {
      expect(normaliseUrl('https://youtu.be/dQw4w9WgXcQ?si=abc')).toBe('youtu.be/dQw4w9WgXcQ');
      expect(normaliseUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ&si=abc&feature=share')).toBe(
        'youtube.com/watch?v=dQw4w9WgXcQ',
      );
      expect(normaliseUrl('https://open.spotify.com/track/1?si=abc')).toBe('open.spotify.com/track/1');
    });

    it('does not trip over hostnames that are Object.prototype keys', () => {
      expect(normaliseUrl('http://__proto__/a?x=1')).toBe('__proto__/a?x=1');
      expect(normaliseUrl('http://constructor/a?x=1')).toBe('constructor/a?x=1');
    });
  });

  describe('hosts', () => {
    it('keeps IDN hosts in the punycode form URL gives them', () => {
      expect(normaliseUrl('https://www.bücher.de/a')).toBe('xn--bcher-kva.de/a');
      expect(normaliseUrl('https://xn--bcher-kva.de/a')).toBe('xn--bcher-kva.de/a');
    });

    it('keeps IPv6 hosts bracketed and compressed', () => {
      expect(normaliseUrl('http://[2001:DB8:0:0::1]/a/')).toBe('[2001:db8::1]/a');
      expect(normaliseUrl('http://[::1]:8080/')).toBe('[::1]:8080');
    });

    it('canonicalises numeric IPv4 forms', () => {
      expect(normaliseUrl('http://0x7f.1/')).toBe('127.0.0.1');
    });
  });

  describe('other schemes and invalid input', () => {
    it('keeps a non-http scheme so it never collides with http', () => {
      expect(normaliseUrl('ftp://example.com/file#x')).toBe('ftp://example.com/file');
      expect(normaliseUrl('mailto:Someone@Example.com')).toBe('mailto:Someone@Example.com');
    });

    it.each([
      ['not a url', 'not a url'],
      ['  Example.COM/Path  ', 'example.com/path'],
      ['', ''],
      ['http://', 'http://'],
      ['https://exa mple.com/', 'https://exa mple.com/'],
    ])('returns %j trimmed and lowercased', (input, expected) => {
      expect(normaliseUrl(input)).toBe(expected);
    });
  });
});

describe('domainOf', () => {
  it.each([
    ['https://www.Example.com/a', 'example.com'],
    ['http://sub.example.com:8080/a', 'sub.example.com'],
    ['https://www.bücher.de/', 'xn--bcher-kva.de'],
    ['http://[::1]/', '[::1]'],
    ['  https://example.org  ', 'example.org'],
    ['not a url', ''],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(domainOf(input)).toBe(expected);
  });
});
