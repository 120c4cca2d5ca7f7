import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { BackendUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../backend-unavailable.ts';
import { ApiError } from './api-error.ts';
import type { AppEnv } from './env.ts';
import { errorResponse, failure } from './respond.ts';

/** The one place where a thrown error becomes an answer. */
export function handleError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ApiError) return errorResponse(c, err);
  if (err instanceof HTTPException && err.status === 413) {
    return failure(c, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
  }
  if (err instanceof HTTPException && err.status < 500) return failure(c, 'VALIDATION_ERROR', err.message || 'Bad request');
  if (err instanceof BackendUnavailable) {
    console.error(`[${c.get('requestId')}] ${c.req.method} ${c.req.path}: ${err.message}`);
    const message = `The server cannot reach its ${err.backend === 'Redis' ? 'rate limits' : 'database'} for now; nothing was changed. Try again in ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds`;
    return errorResponse(c, new ApiError('SERVICE_UNAVAILABLE', message, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) }));
  }
  console.error(`[${c.get('requestId')}] ${c.req.method} ${c.req.path} failed:`, err);
  return failure(c, 'INTERNAL_ERROR', 'Something went wrong on the server; the request changed nothing');
}
