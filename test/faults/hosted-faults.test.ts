import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../lib/api/scopes.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { openStore } from '../../server/store/open.ts';
import type { Store } from '../../server/store/store.ts';
import { type TestPostgres, startPostgres } from '../support/postgres.ts';
import { type RawDb, openRawDb } from '../support/raw-db.ts';
import { type TestRedis, startRedis } from '../support/redis.ts';
import { roundRobin } from '../support/round-robin.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';
import { type Api, apiFor, nextIp } from '../support/server.ts';

/**
 * The hosted mode under its faults: two instances on one PostgreSQL and one (persistent) Redis
 * behind a round-robin balancer, each fault injected while bounded loops of saves run through
 * the balancer, as clients retrying with their Idempotency-Key do. Each asserts: no save lost or
 * doubled, every answer during the outage a clear one (503 SERVICE_UNAVAILABLE with
 * Retry-After; never a 500 or a hang), and normal answers within RECOVERY_BOUND_MS of the fault's end.
 */

/** Normal answers again within this of the backend being back (the instances reconnect every 100–500 ms). */
const RECOVERY_BOUND_MS = 5_000;
/** A request that takes longer than this is a hang. */
const HANG_MS = 5_000;
/** How long each fault lasts. */
const OUTAGE_MS = 1_500;
const LOOPS = 4;

interface Instance extends ServerProcess {
  id: string;
  origin: string;
}

let postgres: TestPostgres;
let redis: TestRedis;
let databaseUrl: string;
let instances: Instance[];
let balancer: { server: Server; baseUrl: string };
let store: Store;
let db: RawDb;

async function startInstance(): Promise<Instance> {
  const args = ['--port', '0', '--database', databaseUrl, '--redis', redis.url, '--trust-proxy', '--raise-limits'];
  const server = await startServerProcess('server/main.ts', args);
  const id = server.banner.map((line) => line.match(/^instance (\S+)$/)?.[1]).find((x) => x !== undefined)!;
  return { ...server, id, origin: new URL(server.url).origin };
}

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis({ persistent: true })]);
  databaseUrl = await postgres.createDatabase();
  instances = await Promise.all([startInstance(), startInstance()]);
  balancer = await roundRobin(() => instances);
  store = await openStore({ dataDir: '', databaseUrl });
  db = openRawDb({ dataDir: '', databaseUrl });
}, 90_000);

afterAll(async () => {
  await new Promise((resolve) => balancer?.server.close(resolve));
  await store?.close().catch(() => undefined);
  await db?.close().catch(() => undefined);
  await Promise.all((instances ?? []).map((i) => i.stop()));
  await redis?.stop();
  await postgres?.stop();
});

/** Every answer the loops got, by kind. */
interface LoadReport {
  saved: string[];
  ok: number;
  /** 503 SERVICE_UNAVAILABLE with Retry-After. */
  unavailable: number;
  /** Answers a client retries with the same key that are not the outage's own: the balancer's 502 for an instance killed mid-request, 409 IDEMPOTENCY_KEY_IN_USE for a save cut off mid-request. */
  retried: Record<string, number>;
  /** Anything else: a 500, a 503 without the code or Retry-After, a hang. */
  bad: string[];
  /** When each 2xx came (ms since the epoch). */
  okAt: number[];
}

/**
 * LOOPS loops of saves, each save sent again with its Idempotency-Key until it is made, until
 * `stop` resolves (each loop finishes the save it is on, within a bound).
 */
async function underLoad(token: { userId: string; token: string }, stop: Promise<void>): Promise<LoadReport> {
  const report: LoadReport = { saved: [], ok: 0, unavailable: 0, retried: {}, bad: [], okAt: [] };
  let stopping = false;
  void stop.then(() => (stopping = true));
  const headersOf = (key: string): Record<string, string> => ({ 'Content-Type': 'application/json', 'Idempotency-Key': key, Authorization: `Bearer ${token.token}`, 'X-Forwarded-For': '10.200.0.1' });
  const loop = async (n: number) => {
    for (let i = 0; !stopping; i++) {
      const url = `https://load.example/${token.userId}/${n}/${i}`;
      const key = randomUUID();
      const giveUpAt = Date.now() + 30_000;
      for (;;) {
        if (Date.now() > giveUpAt) throw new Error(`the save of ${url} was never made: ${JSON.stringify(report.retried)} ${report.bad.slice(-3).join('; ')}`);
        let status: number;
        let body: { error?: { code?: string } } = {};
        let retryAfter: string | null = null;
        try {
          const res = await fetch(`${balancer.baseUrl}/bookmarks`, { method: 'POST', headers: headersOf(key), body: JSON.stringify({ url }), signal: AbortSignal.timeout(HANG_MS) });
          status = res.status;
          retryAfter = res.headers.get('Retry-After');
          body = (await res.json().catch(() => ({}))) as typeof body;
        } catch (err) {
          report.bad.push(`${url}: ${(err as Error).name === 'TimeoutError' ? `no answer within ${HANG_MS} ms` : (err as Error).message}`);
          continue;
        }
        if (status === 200 || status === 201) {
          report.ok++;
          report.okAt.push(Date.now());
          report.saved.push(url);
          break;
        }
        const inUse = status === 409 && body.error?.code === 'IDEMPOTENCY_KEY_IN_USE';
        if (status === 503 && body.error?.code === 'SERVICE_UNAVAILABLE' && retryAfter === '5') report.unavailable++;
        else if (status === 502 || inUse) {
          const kind = `${status}${body.error?.code ? ` ${body.error.code}` : ''}`;
          report.retried[kind] = (report.retried[kind] ?? 0) + 1;
        } else report.bad.push(`${url}: ${status} ${JSON.stringify(body)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  await Promise.all(Array.from({ length: LOOPS }, (_, n) => loop(n)));
  return report;
}

async function tokenUser(): Promise<{ userId: string; token: string; api: Api }> {
  const u = await store.accounts.createUser({ name: 'Faults', email: 'faults@example.com', plan: 'pro' }, Date.now());
  const { token } = await issueToken(store.accounts, { userId: u.id, name: 't', scopes: [...ALL_SCOPES], expiresAt: null }, Date.now());
  return { userId: u.id, token, api: apiFor(balancer.baseUrl, { token, ip: nextIp() }) };
}

/** Every save made once: as many rows as saves acknowledged, each URL once. */
async function expectEachSavedOnce(userId: string, saved: readonly string[]): Promise<void> {
  const rows = await db.all<{ url: string }>('SELECT url FROM bookmarks WHERE user_id = ?', userId);
  expect(rows.length).toBe(saved.length);
  expect(new Set(rows.map((r) => r.url))).toEqual(new Set(saved));
}

/** Runs the load, injects the fault after a moment, ends it after OUTAGE_MS, and lets the load run on a little; answers the report and when the fault ended. */
async function withFault(u: { userId: string; token: string }, fault: () => Promise<void>, end: () => Promise<void>): Promise<{ report: LoadReport; endedAt: number }> {
  let stopLoad!: () => void;
  const load = underLoad(u, new Promise<void>((resolve) => (stopLoad = resolve)));
  await new Promise((resolve) => setTimeout(resolve, 300));
  await fault();
  await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
  await end();
  const endedAt = Date.now();
  await new Promise((resolve) => setTimeout(resolve, RECOVERY_BOUND_MS));
  stopLoad();
  return { report: await load, endedAt };
}

const recoveryMs = (report: LoadReport, endedAt: number): number => Math.min(...report.okAt.filter((at) => at >= endedAt)) - endedAt;

/** The figures the README quotes, printed by each test. */
function tell(what: string, report: LoadReport, endedAt: number): void {
  console.warn(
    `${what}: ${report.ok} saves made, ${report.unavailable} answers 503 SERVICE_UNAVAILABLE during the outage, ` +
      `retried ${JSON.stringify(report.retried)}, first normal answer ${recoveryMs(report, endedAt)} ms after the fault ended, bad answers ${report.bad.length}, saves lost 0`,
  );
}

describe('two instances on PostgreSQL and Redis, under load', () => {
  it('Redis killed and restarted: 503s with Retry-After, no save lost or doubled, normal again within the bound, IP blocks kept', async () => {
    const u = await tokenUser();
    const blocked = '10.201.0.1';
    const bad = apiFor(balancer.baseUrl, { ip: blocked, token: `tok_${'0'.repeat(64)}` });
    for (let i = 0; i < 5; i++) await bad('GET', '/auth/verify');
    expect((await u.api('GET', '/auth/verify', { ip: blocked })).status).toBe(403);

    const { report, endedAt } = await withFault(u, () => redis.kill(), () => redis.restart());
    tell('Redis killed and restarted', report, endedAt);
    expect(report.bad).toEqual([]);
    expect(report.unavailable).toBeGreaterThan(0);
    expect(recoveryMs(report, endedAt)).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    await expectEachSavedOnce(u.userId, report.saved);
    expect((await u.api('GET', '/auth/verify', { ip: blocked })).status).toBe(403);
  }, 60_000);

  it('PostgreSQL stopped and started: 503s with Retry-After, no save lost or doubled, normal again within the bound, both instances up', async () => {
    const u = await tokenUser();
    const { report, endedAt } = await withFault(u, () => postgres.shutdown(), () => postgres.start());
    tell('PostgreSQL stopped and started', report, endedAt);
    // Both instances outlive the database's restart: no 502 from the balancer (and if one died, what it said).
    for (const i of instances) expect(i.exited(), i.stderr()).toBeNull();
    expect(report.retried['502']).toBeUndefined();
    expect(report.bad).toEqual([]);
    expect(report.unavailable).toBeGreaterThan(0);
    expect(recoveryMs(report, endedAt)).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    await expectEachSavedOnce(u.userId, report.saved);
  }, 60_000);
});
