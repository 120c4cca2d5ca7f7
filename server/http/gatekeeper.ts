import type { ErrorHandler, MiddlewareHandler } from 'hono';
import { isAuthenticationFailure } from '../../lib/api/error-codes.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import { type Awaitable, thenOrNow } from '../awaitable.ts';
import type { Clock } from '../clock.ts';
import type { Guards } from '../limits/guards.ts';
import { ApiError } from './api-error.ts';
import type { AppEnv } from './env.ts';
import { addHeaders, reply } from './respond.ts';

/**
 * Everything between the network and a route: the per-IP gateway limit, the IP
 * block, authentication (with the failed-auth bucket), the user's rate limits
 * and the Pro-plan rule, in that order.
 */
export function gatekeeper(deps: {
  guards: Guards;
  authenticator: Authenticator;
  clock: Clock;
  dataVersion: () => Awaitable<string>;
}): MiddlewareHandler<AppEnv> {
  const { guards, authenticator, clock, dataVersion } = deps;
  return async (c, next) => {
    const ip = c.get('clientIp');

    await passGateway(guards, ip);

    const block = await guards.ipBlock(ip);
    if (!block.allowed) {
      addHeaders(c, { 'Retry-After': String(block.retryAfterSeconds) });
      const error = `Too many failed authentication attempts from this address. Try again in ${block.retryAfterSeconds} seconds.`;
      return reply(c, JSON.stringify({ error, meta: { requestId: c.get('requestId') } }), 403);
    }

    const version = await dataVersion();
    c.set('dataVersion', version);
    const outcome = await authenticator.authenticate(c.req.header('Authorization'), clock.now(), version);
    if (!outcome.ok) {
      const bucket = await guards.failedAuthBucket(ip);
      if (!bucket.allowed) throw gatewayLimited(bucket.retryAfterSeconds);
      throw new ApiError(outcome.code, outcome.message);
    }

    const limits = await guards.user(outcome.auth.userId);
    addHeaders(c, limits.headers);
    if (!limits.allowed) {
      throw new ApiError('RATE_LIMITED', 'Rate limit exceeded', { 'Retry-After': String(limits.retryAfterSeconds) });
    }
    if (outcome.auth.plan !== 'pro') {
      throw new ApiError('API_ACCESS_PRO_REQUIRED', 'API access needs the Pro plan; upgrade the account to Pro');
    }
    c.set('auth', outcome.auth);
    await next();
  };
}

/**
 * Counts every authentication failure of the spec toward the IP block, whichever
 * check answered it (the gatekeeper's own, token and plan, or a route's scope check):
 * the error handler sees every one of them, so a request pays for the count only
 * when it fails, and a GET passes one middleware fewer.
 */
export function countingAuthFailures(guards: Guards, handle: ErrorHandler<AppEnv>): ErrorHandler<AppEnv> {
  return async (err, c) => {
    if (err instanceof ApiError && isAuthenticationFailure(err.code)) {
      // A failure that cannot be counted (Redis away) is answered as that outage: limits fail closed.
      const uncounted = await Promise.resolve(guards.recordAuthFailure(c.get('clientIp'))).then(
        () => null,
        (recordErr: unknown) => recordErr,
      );
      if (uncounted instanceof Error) return handle(uncounted, c);
    }
    return handle(err, c);
  };
}

/** The per-address gateway limit alone, for what answers without a token outside /v1 (the storage service). */
export function gatewayLimit(guards: Guards): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await passGateway(guards, c.get('clientIp'));
    await next();
  };
}

const passGateway = (guards: Guards, ip: string): Awaitable<void> =>
  thenOrNow(guards.gateway(ip), (gateway) => {
    if (!gateway.allowed) throw gatewayLimited(gateway.retryAfterSeconds);
  });

/** Gateway answers carry Retry-After and never X-RateLimit headers. */
function gatewayLimited(retryAfterSeconds: number): ApiError {
  return new ApiError('RATE_LIMITED', 'Rate limit exceeded', { 'Retry-After': String(retryAfterSeconds) });
}
