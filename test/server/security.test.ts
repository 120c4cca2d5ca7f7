import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, endpoints } from '../../lib/api/endpoints.ts';
import { hasScope } from '../../lib/api/scope-check.ts';
import { ALL_SCOPES, type Scope } from '../../lib/api/scopes.ts';
import { expectError } from '../support/expect.ts';
import { apiFor, nextIp, startTestServer, type TestServer } from '../support/server.ts';

/**
 * Every route against every way of being refused: no token, a bad token, a
 * free plan, and each scope it lacks. The expected scopes are written here from
 * the spec's tables, independently of lib/api/endpoints.ts, and compared with it.
 */
const specScopes: Record<string, Scope | 'token'> = {
  'GET /auth/verify': 'token',
  'POST /auth/verify': 'token',
  'GET /bookmarks': 'bookmarks:read',
  'GET /bookmarks/search': 'bookmarks:read',
  'GET /bookmarks/domains': 'bookmarks:read',
  // Shelf's own additions (docs/api-decisions.md, Link check).
  'GET /bookmarks/link-statuses': 'bookmarks:read',
  'POST /bookmarks/bulk/check': 'bookmarks:write',
  'GET /bookmarks/stats': 'bookmarks:read',
  'GET /bookmarks/duplicates': 'bookmarks:read',
  'GET /bookmarks/trash': 'bookmarks:read',
  'DELETE /bookmarks/trash': 'destructive',
  'POST /bookmarks/bulk/trash': 'bookmarks:write',
  'POST /bookmarks/bulk/favorite': 'bookmarks:write',
  'POST /bookmarks/bulk/move': 'bookmarks:write',
  'POST /bookmarks/bulk/tag': 'tags:write',
  'DELETE /bookmarks/bulk/tag': 'tags:write',
  'GET /bookmarks/:id': 'bookmarks:read',
  'POST /bookmarks': 'bookmarks:write',
  'PATCH /bookmarks/:id': 'bookmarks:write',
  'DELETE /bookmarks/:id': 'bookmarks:write',
  'POST /bookmarks/:id/restore': 'bookmarks:write',
  'DELETE /bookmarks/:id/permanent': 'destructive',
  'PUT /bookmarks/:id/favorite': 'bookmarks:write',
  'POST /bookmarks/:id/move': 'bookmarks:write',
  'POST /bookmarks/:id/cover/upload-url': 'bookmarks:write',
  'POST /bookmarks/:id/cover': 'bookmarks:write',
  'DELETE /bookmarks/:id/cover': 'bookmarks:write',
  'GET /bookmarks/:id/tags': 'bookmarks:read',
  'POST /bookmarks/:id/tags': 'tags:write',
  'DELETE /bookmarks/:id/tags/:tagId': 'tags:write',
  'GET /collections': 'collections:read',
  'GET /collections/trashed': 'collections:read',
  'GET /collections/:id': 'collections:read',
  'POST /collections': 'collections:write',
  'PATCH /collections/:id': 'collections:write',
  'DELETE /collections/:id': 'collections:write',
  'POST /collections/:id/restore': 'collections:write',
  'GET /collections/:id/bookmarks': 'bookmarks:read',
  'GET /collections/:id/share': 'collections:read',
  'PUT /collections/:id/share': 'collections:write',
  'GET /tags': 'tags:read',
  'POST /tags': 'tags:write',
  'POST /tags/merge': 'tags:write',
  'PATCH /tags/:id': 'tags:write',
  'DELETE /tags/:id': 'tags:write',
  'GET /tags/by-id/:id/bookmarks': 'bookmarks:read',
  'GET /tags/:name{.+}/bookmarks': 'bookmarks:read',
  'GET /smart-folders': 'bookmarks:read',
  'GET /smart-folders/:id': 'bookmarks:read',
  'POST /smart-folders': 'bookmarks:write',
  'PATCH /smart-folders/:id': 'bookmarks:write',
  'DELETE /smart-folders/:id': 'bookmarks:write',
  'GET /smart-folders/:id/bookmarks': 'bookmarks:read',
  'POST /export/:format': 'export',
  'GET /jobs/:id': 'token',
  'POST /jobs/:id/download': 'export',
  'POST /import/reserve': 'import',
  'POST /import/start': 'import',
};

const all = Object.values(endpoints) as Endpoint[];
const label = (e: Endpoint) => `${e.method} ${e.path}`;
const concretePath = (e: Endpoint) =>
  e.path.replace(':format', 'json').replace(':name{.+}', 'some/tag').replace(/:[a-zA-Z]+/g, 'x_doesnotexist');

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('the endpoint contract', () => {
  it('declares exactly the scopes of the spec', () => {
    expect(Object.fromEntries(all.map((e) => [label(e), e.scope]))).toEqual(specScopes);
  });

  it('has a route on the server for every endpoint', async () => {
    const u = await t.user();
    for (const e of all) {
      const res = await u.api(e.method, concretePath(e), { ip: nextIp(), body: e.method === 'GET' ? undefined : {} });
      const code = (res.body as { error?: { code?: string; message?: string } }).error;
      expect(code?.message ?? '', label(e)).not.toMatch(/There is no endpoint/);
    }
  });
});

describe.each(all.map((e) => [label(e), e] as const))('%s', (_, e) => {
  const request = (api: ReturnType<typeof apiFor>) =>
    api(e.method, concretePath(e), { ip: nextIp(), body: e.method === 'GET' ? undefined : {} });

  it('needs a token', async () => {
    expectError(await request(apiFor(t.baseUrl, {})), 401, 'MISSING_TOKEN');
    expectError(await request(apiFor(t.baseUrl, { token: `tok_${'f'.repeat(64)}` })), 401, 'INVALID_TOKEN');
  });

  it('needs the Pro plan', async () => {
    const free = await t.user({ plan: 'free' });
    expectError(await request(free.api), 403, 'API_ACCESS_PRO_REQUIRED');
  });

  const required = e.scope;
  const lacking = required === 'token' ? [] : ALL_SCOPES.filter((s) => !hasScope([s], required));
  it.each(lacking)(`is refused to a token with only %s`, async (scope) => {
    const u = await t.user({ scopes: [scope] });
    const message = expectError(await request(u.api), 403, 'SCOPE_REQUIRED');
    expect(message).toContain(required);
  });

  if (required !== 'token') {
    it(`passes the scope check with only ${required}`, async () => {
      const u = await t.user({ scopes: [required] });
      const res = await request(u.api);
      expect((res.body as { error?: { code: string } }).error?.code).not.toBe('SCOPE_REQUIRED');
    });
  }
});
