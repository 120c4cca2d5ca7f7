import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CachedBody, DEFAULT_RESPONSE_CACHE_LIMITS, ENTRY_OVERHEAD_BYTES, ResponseCache } from '../../server/http/response-cache.ts';
import { type Api, type TestServer, type TestUser, startTestServer } from '../support/server.ts';

/** The default's byte budget with a cap of entries that a test passes with a few dozen requests rather than thousands. */
const LIMITS = { ...DEFAULT_RESPONSE_CACHE_LIMITS, maxEntries: 50 };

let t: TestServer;
let u: TestUser;
beforeAll(async () => {
  // The entries are kept per version of their user's data, so the other test files' writes (on PostgreSQL, to other
  // databases of one cluster) leave them be.
  t = await startTestServer({ raiseLimits: true }, { responseCacheLimits: LIMITS }); // more requests a minute than the spec's per-user limits take
  u = await t.user();
  expect((await u.api('POST', '/bookmarks', { body: { url: 'https://cache.example.org/a', title: 'A', description: '' } })).status).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

const usage = () => t.server.deps.responseCache.usage();
const counts = () => t.server.deps.responseCache.counts();
/** A cached answer's bytes as text. */
const text = (body: CachedBody | undefined) => (body === undefined ? undefined : Buffer.concat(body).toString());
const junk = () => randomBytes(96).toString('hex');

/** `count` GETs, `parallel` at a time, each path from `path(i)`; every one must answer 200. */
async function hammer(api: Api, count: number, path: (i: number) => string, parallel = 16): Promise<void> {
  let next = 0;
  const statuses = new Map<number, number>();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const { status } = await api('GET', path(next++));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  expect(Object.fromEntries(statuses)).toEqual({ 200: count });
}

describe('the read cache under junk queries', () => {
  // More junk requests than the cache has room for entries: were junk part of the key, the cache would be full.
  it('keeps one entry for more requests than its entry cap whose query strings differ only in fields the endpoint does not take', async () => {
    const clean = await u.api('GET', '/bookmarks/domains');
    await hammer(u.api, LIMITS.maxEntries + 10, (i) => `/bookmarks/domains?${junk()}=${i}&utm_${i}=${junk()}`);
    expect(usage().entries).toBe(1);
    expect(usage().bytes).toBeLessThan(1024);
    const after = await u.api('GET', `/bookmarks/domains?${junk()}=1`);
    expect((after.body as { data: unknown }).data).toEqual((clean.body as { data: unknown }).data);
  });

  it('stays within its entry cap and byte budget when every query is valid and different', async () => {
    const count = LIMITS.maxEntries + 10;
    await hammer(u.api, count, (i) => `/bookmarks?domain=${i}-${junk()}.example.org`);
    const { entries, bytes } = usage();
    expect(entries).toBe(LIMITS.maxEntries);
    expect(bytes).toBeLessThanOrEqual(LIMITS.maxBytes);
  });

  it("drops the writer's entries once a write moves its data on, and keeps serving another user's from the cache", async () => {
    const other = await t.user();
    const otherList = await other.api('GET', '/bookmarks');
    await u.api('GET', '/bookmarks');
    expect(usage().entries).toBeGreaterThanOrEqual(2);
    expect((await u.api('POST', '/bookmarks', { body: { url: 'https://cache.example.org/b', title: 'B', description: '' } })).status).toBe(201);
    const before = counts();
    const list = await u.api('GET', '/bookmarks');
    expect((list.body as { data: { data: { url: string }[] } }).data.data.map((b) => b.url)).toContain('https://cache.example.org/b');
    expect(counts().misses).toBe(before.misses + 1);
    const again = await other.api('GET', '/bookmarks');
    expect(counts().hits).toBe(before.hits + 1);
    expect(again.body).toMatchObject({ data: (otherList.body as { data: unknown }).data });
    expect(usage().entries).toBe(2); // the writer's new list and the other user's: the writer's older answers went
  });

  it("serves nothing stale to the writer: each of its reads after a write shows it, whichever it asked before", async () => {
    const before = await u.api('GET', '/bookmarks/stats');
    const total = (before.body as { data: { total: number } }).data.total;
    expect((await u.api('POST', '/bookmarks', { body: { url: 'https://cache.example.org/c', title: 'C', description: '' } })).status).toBe(201);
    expect(((await u.api('GET', '/bookmarks/stats')).body as { data: { total: number } }).data.total).toBe(total + 1);
    expect(((await u.api('GET', '/bookmarks/domains')).body as { data: { domain: string; count: number }[] }).data).toContainEqual({
      domain: 'cache.example.org',
      count: total + 1,
    });
  });
});

describe('an answer from the cache', () => {
  it('carries the same headers and envelope as a computed one, with its own request id and rate-limit count', async () => {
    const url = `${t.baseUrl}/bookmarks?limit=5`;
    const headers = { Authorization: `Bearer ${u.token}` };
    const first = await fetch(url, { headers });
    const second = await fetch(url, { headers }); // the same version: served from the cache
    const [a, b] = [await first.text(), await second.text()];
    for (const [res, text] of [[first, a], [second, b]] as const) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect(res.headers.get('x-request-id')).toBe((JSON.parse(text) as { meta: { requestId: string } }).meta.requestId);
    }
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - 1);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect((JSON.parse(b) as { data: unknown }).data).toEqual((JSON.parse(a) as { data: unknown }).data);
  });

  it('answers a HEAD with the headers and no body', async () => {
    const res = await fetch(`${t.baseUrl}/bookmarks?limit=5`, { method: 'HEAD', headers: { Authorization: `Bearer ${u.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await res.text()).toBe('');
  });
});

describe('the read cache accounting', () => {
  it('counts keys in its byte budget, so long keys with tiny answers are bounded too', () => {
    const cache = new ResponseCache({ maxBytes: 64 * 1024, maxEntries: 1_000 });
    const body = [Buffer.from('[]')];
    for (let i = 0; i < 1_000; i++) cache.set('user', `user /bookmarks ${i} ${'x'.repeat(2_000)}`, 'v1', body);
    const { entries, bytes } = cache.usage();
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    const perEntry = 2 * `user /bookmarks 999 ${'x'.repeat(2_000)}`.length + 2 + ENTRY_OVERHEAD_BYTES;
    expect(entries).toBe(Math.floor((64 * 1024) / perEntry));
  });

  it('refuses an answer larger than a quarter of its budget, and keeps the others', () => {
    const cache = new ResponseCache({ maxBytes: 8_000, maxEntries: 10 });
    cache.set('u', 'small', 'v1', [Buffer.alloc(100)]);
    cache.set('u', 'quarter', 'v1', [Buffer.alloc(1_800)]);
    cache.set('u', 'large', 'v1', [Buffer.alloc(2_000)]);
    expect(cache.get('u', 'large', 'v1')).toBeUndefined();
    expect(cache.get('u', 'quarter', 'v1')).toEqual([Buffer.alloc(1_800)]);
    expect(cache.get('u', 'small', 'v1')).toEqual([Buffer.alloc(100)]);
  });

  it("serves a user's entry only at the version of that user's data it was made at, and forgets the user's older ones at the first newer one", () => {
    const cache = new ResponseCache({ maxBytes: 8_000, maxEntries: 10 });
    cache.set('u', 'u a', 'v1', [Buffer.from('1')]);
    cache.set('u', 'u b', 'v1', [Buffer.from('2')]);
    cache.set('w', 'w a', 'v1', [Buffer.from('4')]);
    expect(cache.get('u', 'u a', 'v2')).toBeUndefined();
    expect(cache.usage()).toEqual({ entries: 1, bytes: 2 * 'w a'.length + 1 + ENTRY_OVERHEAD_BYTES });
    expect(text(cache.get('w', 'w a', 'v1'))).toBe('4');
    cache.set('u', 'u a', 'v2', [Buffer.from('3')]);
    expect(text(cache.get('u', 'u a', 'v2'))).toBe('3');
    expect(cache.counts()).toEqual({ hits: 2, misses: 1 });
  });

  it('keeps an answer made in parts as those very parts, counted by their bytes', () => {
    const cache = new ResponseCache({ maxBytes: 8_000, maxEntries: 10 });
    const parts = [Buffer.from('{"data":'), Buffer.from('[1,'), Buffer.from('2]')];
    cache.set('u', 'u list', 'v1', parts);
    expect(cache.usage().bytes).toBe(2 * 'u list'.length + 13 + ENTRY_OVERHEAD_BYTES);
    const kept = cache.get('u', 'u list', 'v1')!;
    expect(kept).toHaveLength(parts.length);
    expect(kept.every((part, i) => part === parts[i])).toBe(true);
  });

  it('lets the least recently used entry go first', () => {
    const cache = new ResponseCache({ maxBytes: 1_000_000, maxEntries: 2 });
    cache.set('u', 'a', 'v1', [Buffer.from('1')]);
    cache.set('u', 'b', 'v1', [Buffer.from('2')]);
    cache.get('u', 'a', 'v1');
    cache.set('u', 'c', 'v1', [Buffer.from('3')]);
    expect(cache.get('u', 'b', 'v1')).toBeUndefined();
    expect(text(cache.get('u', 'a', 'v1'))).toBe('1');
    expect(text(cache.get('u', 'c', 'v1'))).toBe('3');
  });
});
