import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode } from '../../lib/api/errors.ts';
import { ApiError } from './api-error.ts';
import type { AppEnv } from './env.ts';

// Request ids need to be unique, not secret: a random prefix per process and a counter.
const processPrefix = randomBytes(4).toString('hex');
let requestCounter = 0;
export const newRequestId = (): string => `req_${processPrefix}${(requestCounter++ % 0x1_0000_0000).toString(16).padStart(8, '0')}`;

export function success(c: Context<AppEnv>, data: unknown, status: ContentfulStatusCode = 200): Response {
  return c.json({ data, meta: { requestId: c.get('requestId') } }, status);
}

export function failure(c: Context<AppEnv>, code: ErrorCode, message: string): Response {
  return errorResponse(c, new ApiError(code, message));
}

export function errorResponse(c: Context<AppEnv>, err: ApiError): Response {
  for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
  return c.json(
    { error: { code: err.code, message: err.message }, meta: { requestId: c.get('requestId') } },
    err.status as ContentfulStatusCode,
  );
}
