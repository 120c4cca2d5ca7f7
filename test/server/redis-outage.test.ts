import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookmarkPage } from '../../lib/api/bookmarks.ts';
import { REDIS_TIMEOUT_MS } from '../../server/redis/connect.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { type TestRedis, startRedis } from '../support/redis.ts';
import { type TestServer, apiFor, nextIp, startTestServer } from '../support/server.ts';

/** Slack over REDIS_TIMEOUT_MS for a loaded 2-core machine: an answer slower than this is a hang, not a fast failure. */
const OUTAGE_ANSWER_BOUND_MS = REDIS_TIMEOUT_MS + 1500;
const BAD_TOKEN = `tok_${'0'.repeat(64)}`;

let redis: TestRedis;
let t: TestServer;
beforeAll(async () => {
  redis = await startRedis({ persistent: true });
  t = await startTestServer({ redisUrl: redis.url });
});
afterAll(async () => {
  await t?.close();
  await redis?.stop();
});

async function timed<T>(request: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await request();
  return { answer, ms: performance.now() - started };
}

/** Asks until `request` answers `status` (Redis back, the client reconnected), at most `withinMs`. */
async function eventually(request: () => Promise<{ status: number }>, status: number, withinMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { status: got } = await request();
    if (got === status) return performance.now() - started;
    if (performance.now() - started > withinMs) throw new Error(`still ${got} after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a hosted instance whose Redis dies', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After at once, to every kind of request (limits fail closed), and recovers by itself', async () => {
    const u = await t.user();
    await u.api('POST', '/bookmarks', { body: { url: 'https://before.example/' } });
    await redis.kill();
    try {
      const anonymous = apiFor(t.baseUrl, { ip: nextIp() });
      const badToken = apiFor(t.baseUrl, { ip: nextIp(), token: BAD_TOKEN });
      const requests = [
        () => u.api('GET', '/bookmarks'),
        () => u.api('POST', '/bookmarks', { body: { url: 'https://during.example/' } }),
        () => anonymous('GET', '/auth/verify'),
        () => badToken('GET', '/auth/verify'),
      ];
      for (const request of requests) {
        const { answer, ms } = await timed(request);
        const message = expectError(answer, 503, 'SERVICE_UNAVAILABLE');
        expect(message).toMatch(/cannot reach its rate limits for now; nothing was changed/);
        expect(answer.headers.get('Retry-After')).toBe('5');
        expect(ms).toBeLessThan(OUTAGE_ANSWER_BOUND_MS);
      }
    } finally {
      await redis.restart();
    }
    await eventually(() => u.api('GET', '/bookmarks'), 200, 5000);
    const urls = dataOf(await u.api('GET', '/bookmarks'), BookmarkPage).data.map((b) => b.url);
    expect(urls).toEqual(['https://before.example/']);
  });

  it('answers 503 within its command timeout when Redis hangs without closing the connection', async () => {
    const u = await t.user();
    await eventually(() => u.api('GET', '/auth/verify'), 200, 5000);
    redis.freeze();
    try {
      const { answer, ms } = await timed(() => u.api('GET', '/bookmarks'));
      expectError(answer, 503, 'SERVICE_UNAVAILABLE');
      expect(answer.headers.get('Retry-After')).toBe('5');
      expect(ms).toBeGreaterThanOrEqual(REDIS_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(OUTAGE_ANSWER_BOUND_MS);
    } finally {
      redis.thaw();
    }
    await eventually(() => u.api('GET', '/auth/verify'), 200, 5000);
  });

  it('keeps its IP blocks across a Redis crash and restart (append-only file)', async () => {
    const u = await t.user();
    await eventually(() => u.api('GET', '/auth/verify'), 200, 5000);
    const ip = nextIp();
    const badToken = apiFor(t.baseUrl, { ip, token: BAD_TOKEN });
    for (let i = 0; i < 5; i++) expectError(await badToken('GET', '/auth/verify'), 401, 'INVALID_TOKEN');
    expect((await u.api('GET', '/auth/verify', { ip })).status).toBe(403);

    await redis.kill();
    await redis.restart();
    await eventually(() => u.api('GET', '/auth/verify'), 200, 5000);
    const blocked = await u.api('GET', '/auth/verify', { ip });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(403);
    expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0);
  });
});
