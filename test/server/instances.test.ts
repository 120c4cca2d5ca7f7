import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookmarkPage } from '../../lib/api/bookmarks.ts';
import { ALL_SCOPES } from '../../lib/api/scopes.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { openStore } from '../../server/store/open.ts';
import type { Store } from '../../server/store/store.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { createDatabase } from '../support/postgres.ts';
import { type RawDb, openRawDb } from '../support/raw-db.ts';
import { type TestRedis, startRedis } from '../support/redis.ts';
import { BACKEND, roundRobin } from '../support/round-robin.ts';
import { startShelfServer } from '../support/server-bundle-global.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { type Api, type ApiResponse, apiFor, nextIp } from '../support/server.ts';
import { KILLED_IMPORT_COUNT, netscapeFile, startImportOf } from './jobs-fixtures.ts';

/**
 * Two server processes on one database and one Redis, behind a round-robin proxy: what one
 * instance counts, blocks, revokes, claims or runs holds on the other. The database is one
 * --data directory, or in the server-postgres project one PostgreSQL database (--database).
 */

const MINUTE = 60_000;

interface Instance extends ServerProcess {
  id: string;
  origin: string;
}

let redis: TestRedis;
let dataDir: string;
let databaseUrl: string | null;
let instances: Instance[];
let proxy: { server: Server; baseUrl: string };
let store: Store;
let db: RawDb;

async function startInstance(): Promise<Instance> {
  // --job-lease-ms: a killed instance's job is taken over 2 s later rather than 30.
  const database = databaseUrl === null ? ['--data', dataDir] : ['--database', databaseUrl];
  const args = ['--port', '0', ...database, '--redis', redis.url, '--test-clock', '--trust-proxy', '--job-lease-ms', '2000'];
  const server = await startShelfServer(args);
  const id = server.banner.map((line) => line.match(/^instance (\S+)$/)?.[1]).find((x) => x !== undefined);
  expect(id).toMatch(/^inst_/);
  return { ...server, id: id!, origin: new URL(server.url).origin };
}

beforeAll(async () => {
  redis = await startRedis();
  dataDir = mkdtempSync(join(tmpdir(), 'shelf-instances-'));
  const cluster = process.env.SHELF_TEST_POSTGRES_URL;
  databaseUrl = cluster ? await createDatabase(cluster) : null;
  // Both at once on a new database: creating the schema must be safe when instances start together.
  instances = await Promise.all([startInstance(), startInstance()]);
  proxy = await roundRobin(() => instances);
  store = await openStore({ dataDir, databaseUrl });
  db = openRawDb({ dataDir, databaseUrl });
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => proxy?.server.close(resolve));
  await store?.close();
  await db?.close();
  await Promise.all((instances ?? []).map((i) => i.stop()));
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A Pro user with a full-scope token, made through a connection of the test's own (as the admin command would). */
async function user(): Promise<{ userId: string; tokenId: string; token: string; api: Api }> {
  const u = await store.accounts.createUser({ name: 'Several', email: 'several@example.com', plan: 'pro' }, Date.now());
  const { record, token } = await issueToken(store.accounts, { userId: u.id, name: 't', scopes: [...ALL_SCOPES], expiresAt: null }, Date.now());
  return { userId: u.id, tokenId: record.id, token, api: apiFor(proxy.baseUrl, { token, ip: nextIp() }) };
}

const bookmarkCount = async (userId: string): Promise<number> =>
  Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM bookmarks WHERE user_id = ?', userId))!.n);

const backends = (answers: ApiResponse[]): Set<string | null> => new Set(answers.map((a) => a.headers.get(BACKEND)));

async function advance(ms: number): Promise<void> {
  const res = await fetch(`${new URL(proxy.baseUrl).origin}/__test__/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advanceMs: ms }),
  });
  expect(res.status).toBe(200);
}

describe('two instances behind a round-robin proxy', () => {
  it('count one per-user window together, exactly, and the shared test clock resets it on both', async () => {
    const u = await user();
    const ips = [nextIp(), nextIp(), nextIp()];
    const answers = await Promise.all(Array.from({ length: 130 }, (_, i) => u.api('GET', '/auth/verify', { ip: ips[i % 3] })));
    expect(backends(answers)).toEqual(new Set(['0', '1']));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(120);
    expect(ok.map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 120 }, (_, i) => i),
    );
    for (const refused of answers.filter((a) => a.status !== 200)) expectError(refused, 429, 'RATE_LIMITED');

    // One clock move, made through one instance, ends the window on both.
    await advance(MINUTE);
    const after = await Promise.all([0, 1].map(() => u.api('GET', '/auth/verify', { ip: ips[0] })));
    expect(backends(after)).toEqual(new Set(['0', '1']));
    expect(after.map((a) => a.status)).toEqual([200, 200]);
  });

  it('count one per-address gateway window together', async () => {
    const u = await user();
    const ip = nextIp();
    const answers = await Promise.all(Array.from({ length: 60 }, () => u.api('GET', '/auth/verify', { ip })));
    expect(backends(answers)).toEqual(new Set(['0', '1']));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const refused = await Promise.all([0, 1].map(() => u.api('GET', '/auth/verify', { ip })));
    expect(backends(refused)).toEqual(new Set(['0', '1']));
    for (const a of refused) {
      expectError(a, 429, 'RATE_LIMITED');
      expect(a.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('block an address on both after five rejected tokens spread over both, and lift it together', async () => {
    const u = await user();
    const ip = nextIp();
    const guesses = [];
    for (let i = 0; i < 5; i++) guesses.push(await u.api('GET', '/auth/verify', { ip, token: `tok_${String(i).repeat(64)}` }));
    expect(backends(guesses)).toEqual(new Set(['0', '1']));
    for (const g of guesses) expectError(g, 401, 'INVALID_TOKEN');

    const blocked = await Promise.all([0, 1].map(() => u.api('GET', '/auth/verify', { ip })));
    expect(backends(blocked)).toEqual(new Set(['0', '1']));
    for (const b of blocked) {
      expect(b.status).toBe(403);
      expect(Number(b.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    }
    expect((await u.api('GET', '/auth/verify', { ip: nextIp() })).status).toBe(200); // only that address

    await advance(15 * MINUTE);
    const lifted = await Promise.all([0, 1].map(() => u.api('GET', '/auth/verify', { ip })));
    expect(lifted.map((a) => a.status)).toEqual([200, 200]);
  });

  it('refuse a revoked token on both from the next request on', async () => {
    const u = await user();
    // Twice on each, so that each instance has the token's look-up cached (and its last use recorded).
    for (let round = 0; round < 2; round++) {
      const before = await Promise.all([0, 1].map(() => u.api('GET', '/auth/verify')));
      expect(before.map((a) => a.status)).toEqual([200, 200]);
    }
    await store.accounts.revokeToken(u.tokenId, Date.now());
    const after = await Promise.all([0, 1].map(() => u.api('GET', '/auth/verify')));
    expect(backends(after)).toEqual(new Set(['0', '1']));
    for (const a of after) expectError(a, 401, 'TOKEN_REVOKED');
  });

  it("never answer a read from a cache the other instance's write made stale, nor one a write by another process made stale", async () => {
    const [u, other] = [await user(), await user()];
    expect((await other.api('POST', '/bookmarks', { body: { url: 'https://example.com/other', title: 'Other' } })).status).toBe(201);
    const titles = async (who: typeof u) => {
      const answers = await Promise.all([0, 1].map(() => who.api('GET', '/bookmarks?limit=10')));
      expect(backends(answers)).toEqual(new Set(['0', '1']));
      return answers.map((a) => dataOf(a, BookmarkPage).data.map((b) => b.title));
    };
    expect(await titles(u)).toEqual([[], []]);
    expect(await titles(u)).toEqual([[], []]); // now cached on both
    expect(await titles(other)).toEqual([['Other'], ['Other']]);
    const write = await u.api('POST', '/bookmarks', { body: { url: 'https://example.com/cached', title: 'Fresh' } });
    expect(write.status).toBe(201);
    expect(await titles(u)).toEqual([['Fresh'], ['Fresh']]); // the instance that did not write among them
    expect(await titles(other)).toEqual([['Other'], ['Other']]);
    // As the admin command or a job would: a write through a connection of its own, no instance told.
    await db.run("UPDATE bookmarks SET title = 'Renamed elsewhere' WHERE user_id = ?", u.userId);
    expect(await titles(u)).toEqual([['Renamed elsewhere'], ['Renamed elsewhere']]);
  });

  it('let one request of those sharing an Idempotency-Key create, whichever instance each reaches', async () => {
    const u = await user();
    const body = { url: 'https://example.com/once', title: 'Once' };
    const headers = { 'Idempotency-Key': 'several-instances-1' };
    const answers = await Promise.all(Array.from({ length: 12 }, () => u.api('POST', '/bookmarks', { body, headers })));
    expect(backends(answers)).toEqual(new Set(['0', '1']));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((a) => (a.body as { data: { id: string } }).data.id)).size).toBe(1);
    for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 409, 'IDEMPOTENCY_KEY_IN_USE');
    expect(await bookmarkCount(u.userId)).toBe(1);
    // Once answered, every later retry is a replay, on either instance.
    const retries = await Promise.all([0, 1].map(() => u.api('POST', '/bookmarks', { body, headers })));
    expect(backends(retries)).toEqual(new Set(['0', '1']));
    for (const r of retries) {
      expect(r.status).toBe(201);
      expect(r.headers.get('idempotent-replayed')).toBe('true');
    }
  });

  it('run a job on one instance only, and finish it on the other from its checkpoint when the first dies', async () => {
    const u = await user();
    const count = KILLED_IMPORT_COUNT;
    const { jobId } = await startImportOf(u.api, netscapeFile(count));
    type JobRow = { status: string; position: number; lease_owner: string | null };
    const row = async () => (await db.get<JobRow>('SELECT status, position, lease_owner FROM jobs WHERE id = ?', jobId))!;
    // Catching the job midway needs a short interval; waiting for its end, a longer one spares the database.
    const waitFor = async (done: (r: JobRow) => boolean, intervalMs = 5) => {
      const deadline = Date.now() + 90_000;
      for (;;) {
        const r = await row();
        if (done(r)) return r;
        if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${JSON.stringify(r)}`);
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    };

    const midway = await waitFor((r) => r.position > 0 || r.status !== 'running');
    expect(midway.status).toBe('running');
    const owner = instances.find((i) => midway.lease_owner?.startsWith(`${i.id}.`))!;
    expect(owner).toBeDefined();
    const survivor = instances.find((i) => i !== owner)!;
    await owner.kill();
    instances = [survivor];

    const done = await waitFor((r) => r.status !== 'running', 200);
    expect(done).toMatchObject({ status: 'completed' });
    const job = await u.api('GET', `/jobs/${jobId}`);
    // Resumed, not rerun: a second run of committed batches would count them as duplicates.
    expect(job.body).toMatchObject({ data: { status: 'completed', result: { imported: count, skipped: 0, duplicates: 0 } } });
    expect(await bookmarkCount(u.userId)).toBe(count);
  }, 180_000);
});
