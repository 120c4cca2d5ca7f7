import type { Context } from 'hono';
import { ApiError, invalidInput } from './api-error.ts';
import type { AppEnv } from './env.ts';

/** The request's JSON body (undefined when there is none); raw text kept for idempotency fingerprints. */
export async function readJsonBody(c: Context<AppEnv>): Promise<{ raw: string; value: unknown }> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return { raw: '', value: undefined };
  const raw = await c.req.text();
  if (raw.trim() === '') return { raw, value: undefined };
  const type = c.req.header('Content-Type') ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json');
  }
  try {
    return { raw, value: JSON.parse(raw) };
  } catch {
    throw invalidInput('body', ['not valid JSON']);
  }
}
