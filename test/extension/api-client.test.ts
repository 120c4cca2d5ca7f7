// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts for why not happy-dom).
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { VerifiedUser } from '../../lib/api/auth.ts';
import { Bookmark, BookmarkPage, DuplicatesResultOutline } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { type EndpointName, endpoints } from '../../lib/api/endpoints.ts';
import type { Scope } from '../../lib/api/scopes.ts';
import { type ApiClient, type CallInput, createApiClient } from '../../lib/client/api-client.ts';
import { type TestServer, nextIp, startTestServer } from '../support/server.ts';
import { failure } from './support/failure.ts';
import { type FakeServer, closedPort, startFakeServer } from './support/network.ts';

const MINUTE = 60_000;
const BAD_TOKEN = `tok_${'f'.repeat(64)}`;

interface Exchange {
  method: string;
  url: string;
  sent: Headers;
  received: Headers | null;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/**
 * A client as the background makes one, sending from its own client address
 * (the test server trusts X-Forwarded-For) so that one test's failures never
 * block another's, and recording what crossed the wire.
 */
function clientFor(
  token: string,
  options: { baseUrl?: string; log?: Exchange[]; loseResponses?: boolean; scopes?: readonly Scope[] } = {},
): ApiClient {
  const ip = nextIp();
  return createApiClient({
    baseUrl: options.baseUrl ?? t.baseUrl,
    token,
    scopes: options.scopes ?? null,
    fetch: async (input, init) => {
      const sent = new Headers(init?.headers);
      sent.set('X-Forwarded-For', ip);
      const exchange: Exchange = { method: init?.method ?? 'GET', url: String(input), sent, received: null };
      options.log?.push(exchange);
      const response = await fetch(input, { ...init, headers: sent });
      exchange.received = response.headers;
      if (options.loseResponses) throw new TypeError('fetch failed: the connection closed before the answer arrived');
      return response;
    },
  });
}

const page = (n: number) => ({ url: `https://example.com/article-${n}`, title: `Article ${n}`, description: '' });

describe('answers are parsed with the shared schemas', () => {
  it('verify answers the user', async () => {
    const u = await t.user();
    const user = await clientFor(u.token).call('verify');
    expect(VerifiedUser.parse(user)).toEqual(user);
    expect(user).toMatchObject({ userId: u.userId, name: 'Test user', email: 'test@example.com', plan: 'pro' });
  });

  it('a create answers the bookmark; a list answers a page; a get finds it by its path parameter', async () => {
    const u = await t.user();
    const client = clientFor(u.token);
    const created = await client.call('createBookmark', { body: { ...page(1), tags: ['Reading'], isFavorite: true } });
    expect(Bookmark.parse(created)).toEqual(created);
    expect(created).toMatchObject({ url: 'https://example.com/article-1', title: 'Article 1', isFavorite: true });
    await client.call('createBookmark', { body: page(2) });

    const first = await client.call('listBookmarks', { query: { limit: '1', sortBy: 'oldest' } });
    expect(BookmarkPage.parse(first)).toEqual(first);
    expect(first.data.map((b) => b.id)).toEqual([created.id]);
    expect(first.cursor).toEqual(expect.any(String));

    expect((await client.call('getBookmark', { params: { id: created.id } })).id).toBe(created.id);
  });
});

describe('HTTP errors become ClientErrors with the API code and status', () => {
  it.each([
    { code: 'INVALID_TOKEN', status: 401, make: async () => clientFor(BAD_TOKEN) },
    {
      code: 'TOKEN_REVOKED',
      status: 401,
      make: async () => {
        const u = await t.user();
        await t.server.deps.store.accounts.revokeToken(u.tokenId, t.server.deps.clock.now());
        return clientFor(u.token);
      },
    },
    {
      code: 'TOKEN_EXPIRED',
      status: 401,
      make: async () => {
        const u = await t.user({ expiresAt: t.server.deps.clock.now() + MINUTE });
        await t.advance(2 * MINUTE);
        return clientFor(u.token);
      },
    },
    { code: 'API_ACCESS_PRO_REQUIRED', status: 403, make: async () => clientFor((await t.user({ plan: 'free' })).token) },
  ])('$code', async ({ code, status, make }) => {
    const err = await failure((await make()).call('verify'));
    expect(err).toMatchObject({ code, status, retryAfterSeconds: undefined });
    expect(err.message).not.toBe('');
  });

  it('SCOPE_REQUIRED, VALIDATION_ERROR and NOT_FOUND', async () => {
    const reader = clientFor((await t.user({ scopes: ['bookmarks:read'] })).token);
    expect(await failure(reader.call('createBookmark', { body: page(1) }))).toMatchObject({ code: 'SCOPE_REQUIRED', status: 403 });

    const client = clientFor((await t.user()).token);
    const invalid = await failure(client.call('createBookmark', { body: { url: 'not a url' } }));
    expect(invalid).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect(invalid.message).toMatch(/url/i);
    expect(await failure(client.call('getBookmark', { params: { id: 'bm_missing' } }))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('with the token\'s scopes known, refuses unsent what they do not permit, so the server never counts a refusal', async () => {
    const u = await t.user({ scopes: ['bookmarks:write', 'tags:read'] });
    const log: Exchange[] = [];
    const client = clientFor(u.token, { log, scopes: ['bookmarks:write', 'tags:read'] });
    const refused = await failure(client.call('createCollection', { body: { name: 'Reading' } }));
    expect(refused).toMatchObject({ code: 'SCOPE_REQUIRED', status: undefined });
    expect(refused.message).toContain('collections:write');
    expect(await failure(client.call('emptyTrash'))).toMatchObject({ code: 'SCOPE_REQUIRED' });
    expect(await failure(client.call('addBookmarkTag', { params: { id: 'bm_x' }, body: { name: 'x' } }))).toMatchObject({ code: 'SCOPE_REQUIRED' });
    expect(log).toEqual([]);

    // A write scope grants its read scope, and "any valid token" endpoints need none.
    await client.call('listBookmarks');
    await client.call('listTags');
    await client.call('checkToken');
    expect(log.map((e) => `${e.method} ${new URL(e.url).pathname}`)).toEqual(['GET /v1/bookmarks', 'GET /v1/tags', 'GET /v1/auth/verify']);
  });

  it('RATE_LIMITED carries the seconds to wait', async () => {
    const client = clientFor((await t.user()).token);
    await client.call('duplicates');
    await client.call('duplicates');
    const err = await failure(client.call('duplicates'));
    expect(err).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(err.retryAfterSeconds).toBeGreaterThan(0);
    expect(err.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('the IP block (a plain-string error) becomes IP_BLOCKED with the time left', async () => {
    const client = clientFor(BAD_TOKEN); // one address for all its calls
    for (let attempt = 1; attempt <= 5; attempt++) expect((await failure(client.call('verify'))).code).toBe('INVALID_TOKEN');
    const err = await failure(client.call('verify'));
    expect(err).toMatchObject({ code: 'IP_BLOCKED', status: 403, retryAfterSeconds: 15 * 60 });
    expect(err.message).toMatch(/failed authentication/);
  });
});

describe('failures that are not API errors', () => {
  it('a closed port is NETWORK_ERROR', async () => {
    const client = createApiClient({ baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, token: BAD_TOKEN });
    const err = await failure(client.call('verify'));
    expect(err).toMatchObject({ code: 'NETWORK_ERROR', status: undefined });
    expect(err.message).toMatch(/Could not reach the server/);
  });

  describe('a server that is not a Bookmark Library API', () => {
    let answer: (res: ServerResponse) => void = (res) => res.end();
    let fake: FakeServer;
    beforeAll(async () => {
      fake = await startFakeServer((_req, res) => answer(res));
    });
    afterAll(() => fake.close());

    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => (res: ServerResponse) =>
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
    const callWith = (respond: (res: ServerResponse) => void) => {
      answer = respond;
      return failure(createApiClient({ baseUrl: fake.baseUrl, token: BAD_TOKEN }).call('verify'));
    };

    it.each([
      { what: 'junk text with 200', respond: (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>hello</p>'), status: 200 },
      { what: 'JSON of the wrong shape', respond: json(200, { data: { userId: 42, name: 'x' } }), status: 200 },
      { what: 'the data without its envelope', respond: json(200, { userId: 'usr_1', name: 'A', email: 'a@b.c', plan: 'pro', status: 'active' }), status: 200 },
      { what: 'an HTML error page', respond: (res: ServerResponse) => res.writeHead(502, { 'Content-Type': 'text/html' }).end('<h1>Bad gateway</h1>'), status: 502 },
      { what: 'an error without a message', respond: json(401, { error: { code: 'INVALID_TOKEN' } }), status: 401 },
      { what: 'a string error on another status', respond: json(401, { error: 'nope' }), status: 401 },
    ])('$what is MALFORMED_RESPONSE', async ({ respond, status }) => {
      expect(await callWith(respond)).toMatchObject({ code: 'MALFORMED_RESPONSE', status });
    });

    it('a 403 whose error is a string is IP_BLOCKED, with Retry-After as seconds', async () => {
      const err = await callWith(json(403, { error: 'Blocked for a while', meta: { requestId: 'req_1' } }, { 'Retry-After': '120' }));
      expect(err).toMatchObject({ code: 'IP_BLOCKED', status: 403, retryAfterSeconds: 120, message: 'Blocked for a while' });
    });

    it('a 429 envelope takes its Retry-After', async () => {
      const err = await callWith(json(429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'Retry-After': '7' }));
      expect(err).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterSeconds: 7, message: 'slow down' });
    });

    it('callShaped checks the answer with the shape it is given, not the endpoint’s whole schema', async () => {
      const group = { normalizedUrl: 'a.example/x', bookmarks: [] };
      answer = json(200, { data: { groups: [group, { normalizedUrl: 42 }] } });
      const client = createApiClient({ baseUrl: fake.baseUrl, token: BAD_TOKEN });
      expect(await client.callShaped('duplicates', DuplicatesResultOutline)).toEqual({ groups: [group, { normalizedUrl: 42 }] });
      expect(await failure(client.call('duplicates'))).toMatchObject({ code: 'MALFORMED_RESPONSE', status: 200 });
      answer = json(200, { data: { groups: 'none' } });
      expect(await failure(client.callShaped('duplicates', DuplicatesResultOutline))).toMatchObject({ code: 'MALFORMED_RESPONSE', status: 200 });
    });

    it('a code the API does not list is UNKNOWN_API_ERROR, keeping its message', async () => {
      const err = await callWith(json(418, { error: { code: 'TEAPOT', message: 'I am a teapot' } }));
      expect(err).toMatchObject({ code: 'UNKNOWN_API_ERROR', status: 418, message: 'I am a teapot' });
    });
  });
});

describe('Idempotency-Key', () => {
  /** Path parameters for any endpoint, enough to build its URL. */
  const paramsFor = (path: string) => Object.fromEntries([...path.matchAll(/:([a-zA-Z]+)/g)].map(([, key]) => [key, key === 'format' ? 'json' : 'x1']));

  it('every POST that creates or changes carries a new key; other methods carry none', async () => {
    const sent: { name: EndpointName; key: string | null }[] = [];
    for (const name of Object.keys(endpoints) as EndpointName[]) {
      const endpoint = endpoints[name];
      const client = createApiClient({
        baseUrl: 'http://127.0.0.1:1/v1',
        token: BAD_TOKEN,
        fetch: async (_input, init) => {
          sent.push({ name, key: new Headers(init?.headers).get('Idempotency-Key') });
          return new Response('{}', { status: 500 });
        },
      });
      await failure(client.call(name, { params: paramsFor(endpoint.path) } as CallInput<typeof name>));
    }
    const keyed = sent.filter((s) => s.key !== null).map((s) => s.name);
    const expected = (Object.keys(endpoints) as EndpointName[]).filter((n) => endpoints[n].method === 'POST' && endpoints[n].response !== null);
    expect(keyed.sort()).toEqual(expected.sort());
    expect(keyed).toEqual(expect.arrayContaining(['createBookmark', 'createCollection', 'createTag']));
    const keys = sent.flatMap((s) => (s.key === null ? [] : [s.key]));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('a create retried with the same key after a lost answer makes one bookmark, and the server replays it', async () => {
    const u = await t.user();
    const log: Exchange[] = [];
    const lost = await failure(clientFor(u.token, { log, loseResponses: true }).call('createBookmark', { body: page(7), idempotencyKey: 'save-7' }));
    expect(lost.code).toBe('NETWORK_ERROR');

    const client = clientFor(u.token, { log });
    const saved = await client.call('createBookmark', { body: page(7), idempotencyKey: 'save-7' });
    expect(log.map((e) => e.sent.get('Idempotency-Key'))).toEqual(['save-7', 'save-7']);
    expect(log[1]?.received?.get('Idempotent-Replayed')).toBe('true');
    const all = await client.call('listBookmarks', { query: { limit: '50' } });
    expect(all.data.map((b) => b.id)).toEqual([saved.id]);
  });

  it('a retried collection create with the same key makes one collection; new keys make new ones', async () => {
    const u = await t.user();
    const client = clientFor(u.token);
    const first = await client.call('createCollection', { body: { name: 'Reading' }, idempotencyKey: 'col-1' });
    const again = await client.call('createCollection', { body: { name: 'Reading' }, idempotencyKey: 'col-1' });
    expect(again).toEqual(first);
    expect(z.array(Collection).parse(await client.call('listCollections'))).toHaveLength(1);

    await client.call('createCollection', { body: { name: 'Reading' } });
    await client.call('createCollection', { body: { name: 'Reading' } });
    expect(await client.call('listCollections')).toHaveLength(3);
  });
});

describe('uploads to a reservation’s URL', () => {
  it('sends the file with no token, answers the storage id, and a second upload to the same URL is refused in words', async () => {
    const u = await t.user();
    const log: Exchange[] = [];
    const client = clientFor(u.token, { log });
    const { jobId, uploadUrl } = await client.call('reserveImport');
    const text = (body: string) => new TextEncoder().encode(body);
    const { storageId } = await client.upload(uploadUrl, text('<DL><DT><A HREF="https://example.com/">x</A></DL>'), 'text/html');
    expect(storageId).toMatch(/^fil_/);
    expect(log.at(-1)!.sent.get('Authorization')).toBeNull();
    expect((await client.call('startImport', { body: { jobId, storageId } })).id).toBe(jobId);
    expect((await failure(client.upload(uploadUrl, text('again'), 'text/html'))).code).toBe('RESERVATION_INVALID');
  });

  it('sends nothing to an upload URL on another server', async () => {
    const log: Exchange[] = [];
    const client = clientFor(`tok_${'a'.repeat(64)}`, { log });
    const err = await failure(client.upload('https://elsewhere.example/storage/uploads/abc', new Uint8Array(1), 'image/png'));
    expect(err.code).toBe('MALFORMED_RESPONSE');
    expect(log).toEqual([]);
  });
});
