import type { Handler } from 'hono';
import { openApiDocument } from '../../lib/api/openapi.ts';
import type { ServerDeps } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';
import { CORS_HEADERS } from '../http/cors.ts';
import type { AppEnv } from '../http/env.ts';
import { reply } from '../http/respond.ts';

/**
 * GET /v1/openapi.json: the HTTP reference, without a token (it describes the
 * API, not anyone's data) and without the envelope (tools read it as it is).
 * Built on the first request, not at start, and kept: it changes only with the code.
 */
export function openApiRoute({ guards }: Pick<ServerDeps, 'guards'>): Handler<AppEnv> {
  let document: string | undefined;
  return async (c) => {
    const gateway = await guards.gateway(c.get('clientIp'));
    if (!gateway.allowed) throw new ApiError('RATE_LIMITED', 'Rate limit exceeded', { 'Retry-After': String(gateway.retryAfterSeconds) });
    document ??= JSON.stringify(openApiDocument());
    return reply(c, document, 200, { ...CORS_HEADERS, 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
  };
}
