import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { ErrorCode } from '../../lib/api/errors.ts';
import { ApiError } from './api-error.ts';
import type { AppEnv } from './env.ts';

// Request ids need to be unique, not secret: a random prefix per process and a counter.
const processPrefix = randomBytes(4).toString('hex');
let requestCounter = 0;
export const newRequestId = (): string => `req_${processPrefix}${(requestCounter++ % 0x1_0000_0000).toString(16).padStart(8, '0')}`;

/**
 * Response headers are collected as a plain object per request and written with
 * the answer: Hono's c.header() builds a WHATWG Headers object every time, which
 * also pushes @hono/node-server off its fast path for plain-object headers.
 */
export function addHeaders(c: Context<AppEnv>, headers: Record<string, string>): void {
  Object.assign(c.get('headers'), headers);
}

/** The answer, with every header collected for this request. */
export function reply(
  c: Context<AppEnv>,
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null,
  status: number,
  headers: Record<string, string> = body === null ? {} : { 'Content-Type': 'application/json' },
): Response {
  return new Response(body, { status, headers: { ...c.get('headers'), ...headers } });
}

/** Adds the collected headers to an answer a handler built itself (a download, say). */
export function withCollectedHeaders(c: Context<AppEnv>, response: Response): Response {
  for (const [name, value] of Object.entries(c.get('headers'))) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}

export function failure(c: Context<AppEnv>, code: ErrorCode, message: string): Response {
  return errorResponse(c, new ApiError(code, message));
}

export function errorResponse(c: Context<AppEnv>, err: ApiError): Response {
  addHeaders(c, err.headers);
  return reply(c, JSON.stringify({ error: { code: err.code, message: err.message }, meta: { requestId: c.get('requestId') } }), err.status);
}
