import { ClientError } from './errors.ts';

/**
 * This computer and private networks (RFC 1918, link-local, IPv6 unique-local):
 * the only places a token may travel over plain http without the user saying so.
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  if (/^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host)) return true;
  const v4 = host.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/)?.slice(1).map(Number);
  if (!v4) return false;
  const [a, b] = v4 as [number, number];
  return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}

/** Whether a server address, as typed or kept, names this computer or a private network; false for what is no address. */
export function isLocalServer(serverUrl: string): boolean {
  const trimmed = serverUrl.trim();
  const probe = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  return URL.canParse(probe) && isLocalHost(new URL(probe).hostname);
}

/**
 * Accepts "host:port", an origin, or a URL with /v1, and answers the API base URL
 * ending in /v1. A name without a scheme gets https, or http on this computer or
 * a private network; plain http to anywhere else is refused (INSECURE_SERVER)
 * unless the user has agreed to send the token unencrypted.
 */
export function normalizeServerUrl(input: string, options: { allowInsecure?: boolean } = {}): string {
  const trimmed = input.trim();
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  const probe = hasScheme ? trimmed : `http://${trimmed}`;
  if (!URL.canParse(probe)) throw new ClientError('VALIDATION_ERROR', `"${input}" is not a server address`);
  const url = new URL(hasScheme ? probe : `${isLocalHost(new URL(probe).hostname) ? 'http' : 'https'}://${trimmed}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientError('VALIDATION_ERROR', 'The server address must start with http:// or https://');
  }
  if (url.protocol === 'http:' && !isLocalHost(url.hostname) && !options.allowInsecure) {
    throw new ClientError('INSECURE_SERVER', `${url.origin} would receive your API token unencrypted`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith('/v1') ? path : `${path}/v1`}`;
}
