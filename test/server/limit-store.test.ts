import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LimitStore } from '../../server/limits/limit-store.ts';
import { MemoryLimitStore } from '../../server/limits/memory-limit-store.ts';
import { RedisLimitStore } from '../../server/limits/redis-limit-store.ts';
import { type Db, openDatabase } from '../../server/db/database.ts';
import { openRedis } from '../../server/redis/connect.ts';
import { SqliteBlocks } from '../../server/store/sqlite/blocks.ts';
import { type TestRedis, startRedis } from '../support/redis.ts';

let redisServer: TestRedis;
let redis: Redis;
let other: Redis;
/** The memory store keeps its blocks in the database (so that the admin command can lift them). */
let dataDir: string;
let db: Db;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'shelf-limits-'));
  db = openDatabase(dataDir);
  redisServer = await startRedis();
  redis = await openRedis(redisServer.url);
  other = await openRedis(redisServer.url);
});
afterAll(async () => {
  await Promise.all([redis?.quit(), other?.quit()]);
  await redisServer?.stop();
  db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const MINUTE = 60_000;
const T0 = 1_800_000_000_000;

/** Each test gets a store of its own; the Redis ones a key prefix of their own in the one Redis. */
const kinds: Array<[string, () => LimitStore]> = [
  ['memory', () => {
    db.exec('DELETE FROM ip_blocks');
    return new MemoryLimitStore(new SqliteBlocks(db));
  }],
  ['redis', () => new RedisLimitStore(redis, `t${randomBytes(6).toString('hex')}:`)],
];

describe.each(kinds)('%s LimitStore', (_kind, makeStore) => {
  let store: LimitStore;
  beforeEach(() => {
    store = makeStore();
  });

  const rule = (key: string, limit: number, windowMs = MINUTE) => ({ key, limit, windowMs });

  it('counts a fixed window up to its limit, then refuses until it ends', async () => {
    const r = rule('a', 3);
    const first = await store.consume([r], T0);
    expect(first).toEqual({ allowed: true, windows: [{ rule: r, remaining: 2, resetAt: T0 + MINUTE }] });
    expect((await store.consume([r], T0 + 10)).windows[0]!.remaining).toBe(1);
    expect((await store.consume([r], T0 + 20)).windows[0]!.remaining).toBe(0);
    expect(await store.consume([r], T0 + 30)).toEqual({ allowed: false, windows: [{ rule: r, remaining: 0, resetAt: T0 + MINUTE }] });
    expect((await store.consume([r], T0 + MINUTE - 1)).allowed).toBe(false);
    expect(await store.consume([r], T0 + MINUTE)).toEqual({ allowed: true, windows: [{ rule: r, remaining: 2, resetAt: T0 + 2 * MINUTE }] });
  });

  it('counts several windows together, and none of them when one is full', async () => {
    const minute = rule('min', 5);
    const day = rule('day', 2, 24 * 60 * MINUTE);
    expect((await store.consume([minute, day], T0)).allowed).toBe(true);
    expect((await store.consume([minute, day], T0 + 1)).allowed).toBe(true);
    const refused = await store.consume([minute, day], T0 + 2);
    expect(refused.allowed).toBe(false);
    expect(refused.windows.map((w) => w.remaining)).toEqual([3, 0]);
    // The refused request took nothing from the minute window.
    expect((await store.consume([minute], T0 + 3)).windows[0]!.remaining).toBe(2);
  });

  it('keeps keys apart', async () => {
    expect((await store.consume([rule('x', 1)], T0)).allowed).toBe(true);
    expect((await store.consume([rule('x', 1)], T0)).allowed).toBe(false);
    expect((await store.consume([rule('y', 1)], T0)).allowed).toBe(true);
  });

  it('is exact under concurrent calls', async () => {
    const r = rule('busy', 50);
    const results = await Promise.all(Array.from({ length: 80 }, () => store.consume([r], T0)));
    expect(results.filter((x) => x.allowed)).toHaveLength(50);
    expect(results.filter((x) => x.allowed).map((x) => x.windows[0]!.remaining).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
  });

  it('takes tokens from a bucket that refills over time', async () => {
    const perMs = 30 / MINUTE; // one every 2 s
    for (let i = 0; i < 10; i++) expect(await store.takeToken('b', 10, perMs, T0)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(await store.takeToken('b', 10, perMs, T0)).toEqual({ allowed: false, retryAfterMs: 2000 });
    expect(await store.takeToken('b', 10, perMs, T0 + 500)).toEqual({ allowed: false, retryAfterMs: 1500 });
    expect(await store.takeToken('b', 10, perMs, T0 + 2000)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect((await store.takeToken('b', 10, perMs, T0 + 2000)).allowed).toBe(false);
    // Never more than its capacity, however long it rested.
    const later = T0 + 60 * MINUTE;
    const taken = [];
    for (let i = 0; i < 12; i++) taken.push((await store.takeToken('b', 10, perMs, later)).allowed);
    expect(taken.filter(Boolean)).toHaveLength(10);
  });

  it('counts failures within a sliding window', async () => {
    const window = 5 * MINUTE;
    expect(await store.recordFailure('f', window, T0)).toBe(1);
    expect(await store.recordFailure('f', window, T0)).toBe(2); // two at the same moment are two
    expect(await store.recordFailure('f', window, T0 + MINUTE)).toBe(3);
    expect(await store.recordFailure('f', window, T0 + window)).toBe(2); // the first two fell out
    expect(await store.recordFailure('g', window, T0 + window)).toBe(1);
  });

  it('blocks until a time, lists the blocks in force and lifts one early', async () => {
    await store.block('block:1.2.3.4', T0 + MINUTE);
    await store.block('block:5.6.7.8', T0 + 2 * MINUTE);
    expect(await store.blockedUntil('block:1.2.3.4', T0)).toBe(T0 + MINUTE);
    expect(await store.blockedUntil('block:9.9.9.9', T0)).toBeNull();
    const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
    expect((await store.listBlocks(T0)).sort(byKey)).toEqual([
      { key: 'block:1.2.3.4', until: T0 + MINUTE },
      { key: 'block:5.6.7.8', until: T0 + 2 * MINUTE },
    ]);
    expect(await store.blockedUntil('block:1.2.3.4', T0 + MINUTE)).toBeNull();
    expect(await store.listBlocks(T0 + MINUTE)).toEqual([{ key: 'block:5.6.7.8', until: T0 + 2 * MINUTE }]);

    await store.block('block:3.3.3.3', T0 + 3 * MINUTE);
    expect(await store.unblock('block:5.6.7.8')).toBe(true);
    expect(await store.unblock('block:5.6.7.8')).toBe(false);
    expect(await store.blockedUntil('block:5.6.7.8', T0 + MINUTE)).toBeNull();
    expect(await store.listBlocks(T0 + MINUTE)).toEqual([{ key: 'block:3.3.3.3', until: T0 + 3 * MINUTE }]);
  });
});

describe('RedisLimitStore shared by two connections (two instances)', () => {
  it('counts one window across both, exactly', async () => {
    const prefix = `s${randomBytes(6).toString('hex')}:`;
    const a = new RedisLimitStore(redis, prefix);
    const b = new RedisLimitStore(other, prefix);
    const r = { key: 'shared', limit: 30, windowMs: MINUTE };
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).consume([r], T0)));
    expect(results.filter((x) => x.allowed)).toHaveLength(30);
    await a.block('block:1.1.1.1', T0 + MINUTE);
    expect(await b.blockedUntil('block:1.1.1.1', T0)).toBe(T0 + MINUTE);
    expect(await b.unblock('block:1.1.1.1')).toBe(true);
    expect(await a.blockedUntil('block:1.1.1.1', T0)).toBeNull();
  });

  it('runs its scripts again after Redis forgot them', async () => {
    const store = new RedisLimitStore(redis, `f${randomBytes(6).toString('hex')}:`);
    expect((await store.consume([{ key: 'k', limit: 2, windowMs: MINUTE }], T0)).allowed).toBe(true);
    await redis.script('FLUSH');
    expect((await store.consume([{ key: 'k', limit: 2, windowMs: MINUTE }], T0)).windows[0]!.remaining).toBe(0);
  });
});
