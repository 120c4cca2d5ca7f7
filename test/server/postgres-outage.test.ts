import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookmarkPage } from '../../lib/api/bookmarks.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { type TestPostgres, startPostgres } from '../support/postgres.ts';
import { type TestServer, startTestServer } from '../support/server.ts';

/** The instance reconnects at its next request; anything slower than this after the database is back is not "by itself". */
const RECOVERY_BOUND_MS = 5_000;

let postgres: TestPostgres;
let databaseUrl: string;
let t: TestServer;
beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase();
  t = await startTestServer({ databaseUrl, redisUrl: null });
});
afterAll(async () => {
  await t?.close();
  await postgres?.stop();
});

/** Sends `request` until it answers something else than 503, at most RECOVERY_BOUND_MS; answers that. */
async function onceBack<T extends { status: number }>(request: () => Promise<T>): Promise<T> {
  const giveUpAt = Date.now() + RECOVERY_BOUND_MS;
  for (;;) {
    const answer = await request();
    if (answer.status !== 503 || Date.now() > giveUpAt) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Holds the user's library lock (the one every save takes) in a transaction of its own, so that a save
 * claims its Idempotency-Key and then waits, in the middle, for the database to go away.
 */
async function holdLibraryLock(userId: string): Promise<pg.Client> {
  const client = new pg.Client(databaseUrl);
  client.on('error', () => undefined); // the shutdown cuts it
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`user:${userId}`]);
  return client;
}

describe('a hosted instance whose PostgreSQL restarts', () => {
  it('a save cut off between claiming its Idempotency-Key and its end: 503, then the same key saves it once as soon as the database is back', async () => {
    const u = await t.user();
    const lock = await holdLibraryLock(u.userId);
    const save = () => u.api('POST', '/bookmarks', { body: { url: 'https://cut-off.example/' }, headers: { 'Idempotency-Key': 'cut-off-save' } });
    const cutOff = save();
    // The save has claimed its key and waits for the lock.
    await expect.poll(async () => (await lock.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', ['cut-off-save'])).rows[0].n).toBe(1);
    await postgres.shutdown();
    try {
      const answer = await cutOff;
      expectError(answer, 503, 'SERVICE_UNAVAILABLE');
      expect(answer.headers.get('Retry-After')).toBe('5');
      expectError(await save(), 503, 'SERVICE_UNAVAILABLE');
    } finally {
      await postgres.start();
    }
    // Not 409 IDEMPOTENCY_KEY_IN_USE for the 2 minutes after which a claim counts as abandoned: the instance let go of it.
    const retried = await onceBack(save);
    expect(retried.status).toBe(201);
    const list = dataOf(await u.api('GET', '/bookmarks'), BookmarkPage);
    expect(list.data.map((b) => b.url)).toEqual(['https://cut-off.example/']);
    // And the answer is now the key's: a retry replays it.
    const replay = await save();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
  });
});
