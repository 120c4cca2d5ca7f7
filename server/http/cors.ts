import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';
import { addHeaders, reply } from './respond.ts';

/** The spec's CORS headers on every response, and the preflight answer. */
export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key',
  'Access-Control-Expose-Headers': 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replayed',
  'Access-Control-Max-Age': '600',
};

export const cors: MiddlewareHandler<AppEnv> = (c, next) => {
  addHeaders(c, CORS_HEADERS);
  return c.req.method === 'OPTIONS' ? Promise.resolve(reply(c, null, 204)) : next();
};
