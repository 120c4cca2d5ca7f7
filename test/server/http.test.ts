import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestId } from '../../lib/api/envelope.ts';
import { KEEP_ALIVE_MS } from '../../server/server.ts';
import { expectError } from '../support/expect.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/server.ts';

let t: TestServer;
let u: TestUser;
beforeAll(async () => {
  t = await startTestServer();
  u = await t.user();
});
afterAll(() => t.close());

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, Idempotency-Key',
};

function expectCors(headers: Headers) {
  for (const [name, value] of Object.entries(CORS)) expect(headers.get(name)).toBe(value);
}

describe('envelopes, CORS and request ids', () => {
  it('wraps a success in data + meta.requestId, and echoes the id as X-Request-Id', async () => {
    const res = await u.api('GET', '/auth/verify');
    const body = res.body as { meta: { requestId: string } };
    expect(RequestId.safeParse(body.meta.requestId).success).toBe(true);
    expect(res.headers.get('x-request-id')).toBe(body.meta.requestId);
    expectCors(res.headers);
  });

  it('gives every request its own id', async () => {
    const a = (await u.api('GET', '/auth/verify')).body as { meta: { requestId: string } };
    const b = (await u.api('GET', '/auth/verify')).body as { meta: { requestId: string } };
    expect(a.meta.requestId).not.toBe(b.meta.requestId);
  });

  it('answers a preflight with the CORS headers and no body, without a token', async () => {
    const res = await fetch(`${t.baseUrl}/bookmarks`, {
      method: 'OPTIONS',
      headers: { Origin: 'chrome-extension://abc', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key' },
    });
    expect(res.status).toBe(204);
    expectCors(res.headers);
    expect(await res.text()).toBe('');
  });

  it('puts the CORS headers and the envelope on errors too', async () => {
    const res = await u.api('GET', '/auth/verify', { token: null });
    expectError(res, 401, 'MISSING_TOKEN');
    expectCors(res.headers);
    const body = res.body as { meta: { requestId: string } };
    expect(RequestId.safeParse(body.meta.requestId).success).toBe(true);
  });

  it('answers an unknown endpoint with 404 NOT_FOUND', async () => {
    const res = await u.api('GET', '/no-such-thing');
    expect(expectError(res, 404, 'NOT_FOUND')).toContain('/v1/no-such-thing');
    expectCors(res.headers);
    expectError(await u.api('PUT', '/tags'), 404, 'NOT_FOUND');
  });

  it('carries the X-RateLimit headers on authenticated answers, errors included', async () => {
    for (const res of [await u.api('GET', '/auth/verify'), await u.api('GET', '/no-such-thing')]) {
      expect(res.headers.get('x-ratelimit-limit')).toBe('120');
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 5);
    }
  });
});

describe('kept-alive connections', () => {
  it('keeps an idle connection 65 s, longer than balancers keep theirs, and says so', async () => {
    const res = await u.api('GET', '/auth/verify');
    expect(res.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
  });

  // A connection still answering as the close begins is closed once its answer is out: storage-limits' test of the
  // private data directory closes with one.
  it('closes at once, not after the 65 s of an idle connection', async () => {
    const other = await startTestServer();
    const res = await (await other.user()).api('GET', '/auth/verify');
    expect(res.headers.get('connection')).toBe('keep-alive');
    // Within the test's 20 s: a close that waited for the connection's idle time would not end in it.
    await other.close();
  });
});

describe('request bodies', () => {
  it('refuses a body that is not JSON with a clear message', async () => {
    const res = await u.api('POST', '/tags', { body: '{"name": ' });
    expect(expectError(res, 400, 'VALIDATION_ERROR')).toMatch(/not valid JSON/);
  });

  it('refuses a body sent with another content type', async () => {
    const res = await u.api('POST', '/tags', { body: 'name=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE')).toMatch(/application\/json/);
  });

  it('names the field that fails validation', async () => {
    const res = await u.api('POST', '/tags', { body: { name: 42 } });
    expect(expectError(res, 400, 'VALIDATION_ERROR')).toMatch(/^Invalid body: name:/);
    const missing = await u.api('POST', '/tags', { body: {} });
    expect(expectError(missing, 400, 'VALIDATION_ERROR')).toBe('Invalid body: name: is required');
  });

  it('refuses a body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await u.api('POST', '/tags', { body: { name: 'x'.repeat(1024 * 1024 + 10) } });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('test clock', () => {
  it('moves the server clock and says where it is now', async () => {
    const before = t.server.deps.clock.now();
    const now = await t.advance(5_000);
    expect(now).toBeGreaterThanOrEqual(before + 5_000);
  });

  it('refuses a negative or missing advance', async () => {
    const res = await fetch(`${t.server.origin}/__test__/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advanceMs": -1}' });
    expect(res.status).toBe(400);
  });

  it('does not exist without --test-clock', async () => {
    const plain = await startTestServer({ testClock: false });
    try {
      const res = await fetch(`${plain.server.origin}/__test__/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advanceMs": 1000}' });
      expect(res.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('cached reads', () => {
  it('never answers from a cache made stale by a write, even one from another process', async () => {
    const { z } = await import('zod');
    const { Collection } = await import('../../lib/api/collections.ts');
    const { dataOf } = await import('../support/expect.ts');
    const { openRawDb } = await import('../support/raw-db.ts');
    const reader = await t.user();
    const names = async () => dataOf(await reader.api('GET', '/collections'), z.array(Collection)).map((col) => col.name);

    expect(await names()).toEqual([]);
    dataOf(await reader.api('POST', '/collections', { body: { name: 'First' } }), Collection, 201);
    expect(await names()).toEqual(['First']);
    expect(await names()).toEqual(['First']);

    // Another connection, as the admin command or a second instance would be.
    const other = openRawDb({ dataDir: t.dataDir, databaseUrl: t.server.deps.config.databaseUrl });
    try {
      await other.run("UPDATE collections SET name = 'Renamed elsewhere' WHERE user_id = ?", reader.userId);
    } finally {
      await other.close();
    }
    expect(await names()).toEqual(['Renamed elsewhere']);
  });

  it('gives each answer its own request id', async () => {
    const first = (await u.api('GET', '/tags')).body as { meta: { requestId: string } };
    const second = (await u.api('GET', '/tags')).body as { meta: { requestId: string } };
    expect(second.meta.requestId).not.toBe(first.meta.requestId);
  });
});
