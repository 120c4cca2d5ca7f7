import type { Context } from 'hono';

/** Where the storage service is mounted, beside /v1 on the same origin. */
export const STORAGE_PATH = '/storage';

/**
 * The origin the client reached us at (host and port from the Host header), so that the URLs we
 * hand out work behind any host name or port. Behind a trusted proxy that ends TLS, the request we
 * see is plain HTTP: the scheme is the one the proxy names in X-Forwarded-Proto.
 */
export function requestOrigin(c: Context, proxyHops: number): string {
  const url = new URL(c.req.url);
  const scheme = proxyHops > 0 ? forwardedScheme(c.req.header('X-Forwarded-Proto')) : undefined;
  return scheme === undefined ? url.origin : `${scheme}://${url.host}`;
}

/** The first entry of X-Forwarded-Proto when it is http or https; anything else is not a scheme we hand out. */
function forwardedScheme(header: string | undefined): 'http' | 'https' | undefined {
  const first = header?.split(',')[0]?.trim().toLowerCase();
  return first === 'http' || first === 'https' ? first : undefined;
}

export const uploadUrl = (origin: string, token: string): string => `${origin}${STORAGE_PATH}/uploads/${token}`;
export const fileUrl = (origin: string, fileId: string): string => `${origin}${STORAGE_PATH}/files/${fileId}`;
