import { describe, expect, it } from 'vitest';
import { ClientError } from '../../lib/client/errors.ts';
import { isLocalHost, normalizeServerUrl } from '../../lib/client/server-url.ts';

describe('the server address', () => {
  it.each([
    ['bookmarks.example.com', 'https://bookmarks.example.com/v1'],
    ['bookmarks.example.com:8443/api', 'https://bookmarks.example.com:8443/api/v1'],
    ['https://bookmarks.example.com/v1/', 'https://bookmarks.example.com/v1'],
    ['127.0.0.1:8787', 'http://127.0.0.1:8787/v1'],
    ['localhost:8787', 'http://localhost:8787/v1'],
    ['192.168.1.20:8787', 'http://192.168.1.20:8787/v1'],
    ['10.0.0.5', 'http://10.0.0.5/v1'],
    ['http://172.20.0.2:8787', 'http://172.20.0.2:8787/v1'],
    ['[::1]:8787', 'http://[::1]:8787/v1'],
    ['https://127.0.0.1:8787', 'https://127.0.0.1:8787/v1'],
  ])('%s → %s (https unless on this computer or a private network)', (input, expected) => {
    expect(normalizeServerUrl(input)).toBe(expected);
  });

  it.each(['http://bookmarks.example.com', 'http://8.8.8.8:8787', 'http://172.32.0.1', 'http://192.169.0.1', 'http://nas.local:8787'])(
    'refuses plain http to %s unless the user agrees to send the token unencrypted',
    (input) => {
      const error = (() => {
        try {
          return normalizeServerUrl(input);
        } catch (err) {
          return err;
        }
      })() as ClientError;
      expect(error).toBeInstanceOf(ClientError);
      expect(error.code).toBe('INSECURE_SERVER');
      expect(normalizeServerUrl(input, { allowInsecure: true })).toMatch(/^http:\/\//);
    },
  );

  it.each(['', 'ftp://example.com', 'http://', 'exa mple'])('refuses %j as no server address', (input) => {
    expect(() => normalizeServerUrl(input)).toThrow(ClientError);
  });

  it('tells private and loopback addresses from public ones', () => {
    expect(['127.0.0.1', '127.8.0.1', 'localhost', 'app.localhost', '::1', '[::1]', 'fd12:3456::1', 'fe80::1', '169.254.1.1'].every(isLocalHost)).toBe(true);
    expect(['8.8.8.8', 'example.com', '172.15.0.1', '2001:db8::1', 'localhost.example.com'].some(isLocalHost)).toBe(false);
  });
});
