import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ServerDeps } from './deps.ts';
import { ApiError } from './http/api-error.ts';
import { cors } from './http/cors.ts';
import type { AppEnv } from './http/env.ts';
import { handleError } from './http/error-handler.ts';
import { countingAuthFailures, gatekeeper } from './http/gatekeeper.ts';
import { requestContext } from './http/request-context.ts';
import { failure } from './http/respond.ts';
import { RememberingRouter } from './http/remembering-router.ts';
import { Router } from './http/router.ts';
import { UserVersions } from './http/user-versions.ts';
import { registerRoutes } from './routes/index.ts';
import { openApiRoute } from './routes/openapi.ts';
import { sharedPages } from './routes/shared-pages.ts';
import { testClockRoutes } from './routes/test-clock.ts';
import { storageApp } from './storage/app.ts';

const MB = 1024 * 1024;

const limitBody = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: () => {
      // The unread rest of the body is still on the wire: the connection cannot carry another request.
      throw new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxSize / MB} MB`, { Connection: 'close' });
    },
  });

/** With a test clock shared by several instances, each request first takes up where the clock is now. */
const syncClock =
  ({ clock }: ServerDeps): MiddlewareHandler<AppEnv> =>
  async (_c, next) => {
    await clock.sync();
    await next();
  };

export function createApp(deps: ServerDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ router: new RememberingRouter() });
  app.use('*', requestContext(deps.config.proxyHops, deps.config.ipv6Prefix));
  // After the request's context: a shared clock that cannot be read (Redis away) is answered as any outage.
  if (deps.config.testClock) app.use('*', syncClock(deps));
  app.onError(countingAuthFailures(deps.guards, handleError));
  app.notFound((c) => failure(c, 'NOT_FOUND', `There is no endpoint ${c.req.method} ${c.req.path}`));

  if (deps.config.testClock) app.route('/__test__', testClockRoutes(deps));
  app.route('/storage', storageApp(deps));
  app.route('/shared', sharedPages(deps));
  // Before the /v1 app, whose gatekeeper would ask for a token.
  app.get('/v1/openapi.json', openApiRoute(deps));

  const v1 = new Hono<AppEnv>();
  v1.use('*', cors);
  const importLimit = limitBody(5 * MB);
  const apiLimit = limitBody(MB);
  // Not async: a GET or OPTIONS, with no body to measure, is handed on without a promise of this layer's own.
  v1.use('*', (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'OPTIONS') return next();
    return (c.req.path.startsWith('/v1/import/') ? importLimit : apiLimit)(c, next);
  });
  v1.use('*', gatekeeper({ ...deps, dataVersion: () => deps.store.version() }));
  const router = new Router(v1, {
    guards: deps.guards,
    idempotency: deps.store.idempotency,
    clock: deps.clock,
    cache: deps.responseCache,
    userVersions: new UserVersions((userId) => deps.store.userVersion(userId)),
  });
  registerRoutes(router, deps);
  app.route('/v1', v1);
  return app;
}
