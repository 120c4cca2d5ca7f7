import { ClientError } from './errors.ts';

/** Accepts "host:port", an origin, or a URL with /v1, and answers the API base URL ending in /v1. */
export function normalizeServerUrl(input: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(input.trim()) ? input.trim() : `http://${input.trim()}`;
  if (!URL.canParse(withScheme)) throw new ClientError('VALIDATION_ERROR', `"${input}" is not a server address`);
  const url = new URL(withScheme);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientError('VALIDATION_ERROR', 'The server address must start with http:// or https://');
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith('/v1') ? path : `${path}/v1`}`;
}
