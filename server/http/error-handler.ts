import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
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
  console.error(`[${c.get('requestId')}] ${c.req.method} ${c.req.path} failed:`, err);
  return failure(c, 'INTERNAL_ERROR', 'Something went wrong on the server; the request changed nothing');
}
