import { getConnInfo } from '@hono/node-server/conninfo';
import type { MiddlewareHandler } from 'hono';
import { clientAddress, limitKeyAddress } from './client-address.ts';
import type { AppEnv } from './env.ts';
import { newRequestId } from './respond.ts';

/**
 * Gives each request its id and the client address the per-IP limits key on (`proxyHops`: trusted
 * proxies in front; `ipv6Prefix`: an IPv6 client is keyed by its network of that many bits).
 */
export function requestContext(proxyHops: number, ipv6Prefix: number): MiddlewareHandler<AppEnv> {
  // Not async: it hands on next()'s promise rather than wrapping it in one of its own.
  return (c, next) => {
    const requestId = newRequestId();
    c.set('requestId', requestId);
    c.set('headers', { 'X-Request-Id': requestId });
    // The header is read only where it counts: a lookup through Hono's request costs a little on every request.
    const forwardedFor = proxyHops === 0 ? undefined : c.req.header('X-Forwarded-For');
    c.set('clientIp', limitKeyAddress(clientAddress(peerAddress(c), forwardedFor, proxyHops), ipv6Prefix));
    return next();
  };
}

function peerAddress(c: Parameters<typeof getConnInfo>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
