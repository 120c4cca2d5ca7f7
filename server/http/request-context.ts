import { getConnInfo } from '@hono/node-server/conninfo';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';
import { newRequestId } from './respond.ts';

/** Gives each request its id and the client address the per-IP limits key on. */
export function requestContext(trustProxy: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const requestId = newRequestId();
    c.set('requestId', requestId);
    c.set('headers', { 'X-Request-Id': requestId });
    const forwarded = trustProxy ? c.req.header('X-Forwarded-For')?.split(',')[0]?.trim() : undefined;
    c.set('clientIp', forwarded || peerAddress(c));
    await next();
  };
}

function peerAddress(c: Parameters<typeof getConnInfo>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
