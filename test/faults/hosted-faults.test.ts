import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../lib/api/scopes.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { openStore } from '../../server/store/open.ts';
import type { Store } from '../../server/store/store.ts';
import { type TestPostgres, startPostgres } from '../support/postgres.ts';
import { type RawDb, openRawDb } from '../support/raw-db.ts';
import { type TestRedis, startRedis } from '../support/redis.ts';
import { roundRobin } from '../support/round-robin.ts';
import { startShelfServer } from '../support/server-bundle-global.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { type Api, apiFor, nextIp } from '../support/server.ts';
import { netscapeFile, startImportOf } from '../server/jobs-fixtures.ts';

/**
 * The hosted mode under its faults: two instances on one PostgreSQL and one (persistent) Redis
 * behind a round-robin balancer, each fault injected while bounded loops of saves run through
 * the balancer, as clients retrying with their Idempotency-Key do. Faults: Redis killed and
 * restarted; PostgreSQL stopped and started; the instance holding an export job, or an import job,
 * SIGKILLed midway.
 * Each asserts: no save lost or doubled, every answer during the outage a clear one (503
 * SERVICE_UNAVAILABLE with Retry-After; 502 and 409 IDEMPOTENCY_KEY_IN_USE only where an instance
 * died; never a 500 or a hang), normal answers within RECOVERY_BOUND_MS of the fault's end, and
 * no job stuck. One cluster, one Redis and short leases for all, to keep the project quick.
 */

/** Normal answers again within this of the backend being back (the instances reconnect every 100–500 ms). */
const RECOVERY_BOUND_MS = 5_000;
/** A request that takes longer than this is a hang. */
const HANG_MS = 5_000;
/** How long each fault lasts. */
const OUTAGE_MS = 1_500;
const LOOPS = 4;
/** Each instance's job lease (--job-lease-ms): a killed instance's job is taken over about this long after. */
const LEASE_MS = 2_000;
/** A job whose instance was killed is done within this of the kill (the lease lapsing, then the whole job again at worst). */
const TAKEOVER_BOUND_MS = LEASE_MS + 20_000;
/** The library a killed instance's export writes, and the file a killed instance imports: enough to take a moment, so that it is killed midway. */
const JOB_BOOKMARKS = 3_000;
/** A claim whose request never ended counts as abandoned after this (server/store/shared/idempotency-claims.ts; docs/api-decisions.md). */
const ABANDONED_AFTER_MS = 2 * 60_000;

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
  const args = ['--port', '0', '--database', databaseUrl, '--redis', redis.url, '--trust-proxy', '--raise-limits', '--test-clock', '--job-lease-ms', String(LEASE_MS)];
  const server = await startShelfServer(args);
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
      const giveUpAt = Date.now() + 60_000;
      for (;;) {
        if (Date.now() > giveUpAt) throw new Error(`the save of ${url} was never made: ${JSON.stringify(report.retried)} ${report.bad.slice(-3).join('; ')}`);
        let status: number;
        let body: { error?: { code?: string } } = {};
        let retryAfter: string | null = null;
        const sentAt = Date.now();
        try {
          const res = await fetch(`${balancer.baseUrl}/bookmarks`, { method: 'POST', headers: headersOf(key), body: JSON.stringify({ url }), signal: AbortSignal.timeout(HANG_MS) });
          status = res.status;
          retryAfter = res.headers.get('Retry-After');
          body = (await res.json().catch(() => ({}))) as typeof body;
        } catch (err) {
          const what = (err as Error).name === 'TimeoutError' ? `no answer within ${HANG_MS} ms` : (err as Error).message;
          report.bad.push(`${url}: ${what} (sent at ${new Date(sentAt).toISOString()})`);
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

/** The figures docs/testing.md quotes, printed by each test. */
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

  it('one instance SIGKILLed mid-export: the other takes it over and completes it once, with a whole file of its own attempt only', async () => {
    const u = await tokenUser();
    const exporter = await tokenUser();
    const { jobId: importId } = await startImportOf(exporter.api, netscapeFile(JOB_BOOKMARKS));
    await expect.poll(async () => (await jobRow(importId)).status, { timeout: 60_000, interval: 100 }).toBe('completed');
    const { report, killed, survivor } = await withKilledHolder(u, async () => {
      const res = await exporter.api('POST', '/export/html');
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (res.body as { data: { jobId: string } }).data.jobId;
    }, (job) => job.status === 'running');
    tell(`an instance SIGKILLed mid-export (its job taken over ${killed.takenOverMs} ms after)`, report, killed.at);
    expect(killed.job.status).toBe('completed');
    // The file the completion names is the surviving attempt's, and the only whole one of the job.
    const winner = killed.finishers.at(-1)!;
    expect(winner.startsWith(`${survivor.id}.`)).toBe(true);
    expect(killed.job.storage_id).toBe(`${killed.jobId}.${winner.slice(winner.lastIndexOf('.') + 1)}.html`);
    const whole = await db.all<{ id: string }>("SELECT id FROM file_bytes WHERE id LIKE ? AND complete = 1", `${killed.jobId}.%`);
    expect(whole.map((f) => f.id)).toEqual([killed.job.storage_id]);
    const res = await fetch(`${survivor.url}/jobs/${killed.jobId}/download`, { method: 'POST', headers: { Authorization: `Bearer ${exporter.token}`, 'X-Forwarded-For': nextIp() } });
    expect(res.status).toBe(200);
    const file = await res.text();
    expect(file.match(/<DT><A HREF=/g)).toHaveLength(JOB_BOOKMARKS);
    expect(file.trimEnd().endsWith('</DL><p>')).toBe(true);
    expect(report.bad).toEqual([]);
    await expectEachSavedOnce(u.userId, report.saved);
  }, 120_000);

  it('one instance SIGKILLed mid-import: the other takes it over after the lease and finishes it, each bookmark of the file once', async () => {
    const u = await tokenUser();
    const importer = await tokenUser();
    // Killed once it wrote five sixths: the run that takes over reads the file's first 800 kB only to count past what is written, the longest way to its first write.
    // Uploaded and started before the load: saves of another user that wait over 5 s while a 1 MB file is
    // uploaded and its import starts are a finding of their own (docs/testing.md, faults), not this fault's.
    const { jobId } = await startImportOf(importer.api, netscapeFile(JOB_BOOKMARKS));
    const started = new Date().toISOString();
    const { report, killed, survivor } = await withKilledHolder(u, async () => jobId, (job) => job.position >= (JOB_BOOKMARKS * 5) / 6);
    tell(`an import (started ${started}) whose instance was SIGKILLed at bookmark ${killed.holding.position} at ${new Date(killed.at).toISOString()} (its job taken over ${killed.takenOverMs} ms after, completed ${killed.doneMs} ms after)`, report, killed.at);
    expect(killed.job.status).toBe('completed');
    expect(killed.finishers.at(-1)!.startsWith(`${survivor.id}.`)).toBe(true);
    // Each batch commits with the job's position and counts: the taken-over run writes on from there.
    expect({ imported: killed.job.imported, duplicates: killed.job.duplicates, skipped: killed.job.skipped }).toEqual({ imported: JOB_BOOKMARKS, duplicates: 0, skipped: 0 });
    const urls = netscapeFile(JOB_BOOKMARKS).match(/HREF="[^"]+"/g)!.map((href) => href.slice(6, -1).replaceAll('&amp;', '&'));
    await expectEachSavedOnce(importer.userId, urls);
    const shown = await importer.api('GET', `/jobs/${killed.jobId}`);
    expect(shown.status).toBe(200);
    expect((shown.body as { data: { status: string; result: unknown } }).data).toMatchObject({ status: 'completed', result: { imported: JOB_BOOKMARKS, duplicates: 0, skipped: 0 } });
    expect(report.bad).toEqual([]);
    expect(recoveryMs(report, killed.at)).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    await expectEachSavedOnce(u.userId, report.saved);
  }, 120_000);
});

describe('an Idempotency-Key claim whose instance died', () => {
  it('holds its key for 2 minutes after, through a PostgreSQL restart (409 IDEMPOTENCY_KEY_IN_USE), then the save is made once with the same key', async () => {
    const u = await tokenUser();
    const [victim, survivor] = instances as [Instance, Instance];
    const key = randomUUID();
    const save = (on: Instance) =>
      fetch(`${on.url}/bookmarks`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key, Authorization: `Bearer ${u.token}`, 'X-Forwarded-For': nextIp() },
        body: JSON.stringify({ url: 'https://claimed.example/' }),
      });
    // The user's library lock, held elsewhere, keeps the save waiting after it claimed its key.
    const lock = new pg.Client(databaseUrl);
    lock.on('error', () => undefined);
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`user:${u.userId}`]);
    void save(victim).catch(() => undefined);
    await expect.poll(async () => (await db.all('SELECT 1 FROM idempotency_keys WHERE key = ?', key)).length, { timeout: 10_000 }).toBe(1);
    const claimedAt = Date.now();
    await victim.kill();
    await lock.end();
    await postgres.restart();

    const answerOf = async (res: Response) => ({ status: res.status, code: ((await res.json()) as { error?: { code?: string } }).error?.code });
    const untilBack = async () => {
      for (let tries = 0; ; tries++) {
        const answer = await answerOf(await save(survivor));
        if (answer.status !== 503 || tries === 50) return answer;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    expect(await untilBack()).toEqual({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
    // Just short of 2 minutes after the claim on the server's clock (real time has passed too): still held.
    await advanceClock(survivor, ABANDONED_AFTER_MS - (Date.now() - claimedAt) - 3_000);
    expect(await answerOf(await save(survivor))).toEqual({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
    await advanceClock(survivor, 4_000);
    expect((await save(survivor)).status).toBe(201);
    const replay = await save(survivor);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    await expectEachSavedOnce(u.userId, ['https://claimed.example/']);
    instances[instances.indexOf(victim)] = await startInstance();
  }, 60_000);
});

interface JobRow {
  status: string;
  storage_id: string | null;
  lease_owner: string | null;
  position: number;
  imported: number;
  duplicates: number;
  skipped: number;
}

const jobRow = async (jobId: string): Promise<JobRow> =>
  (await db.all<JobRow>('SELECT status, storage_id, lease_owner, position, imported, duplicates, skipped FROM jobs WHERE id = ?', jobId))[0]!;

/**
 * Under load, starts a job (`start` answers its id), waits until its lease holder is `midway`
 * with it, SIGKILLs that instance, and follows the job in the database until it is finished
 * (within TAKEOVER_BOUND_MS). Then, as the dead instance's Idempotency-Key claims hold for 2 minutes,
 * moves the shared clock past that so the loops' saves it cut off go through with their keys; stops
 * the load, and starts a new instance in the killed one's place for the scenarios after.
 */
async function withKilledHolder(u: { userId: string; token: string }, start: () => Promise<string>, midway: (job: JobRow) => boolean) {
  let stopLoad!: () => void;
  const load = underLoad(u, new Promise<void>((resolve) => (stopLoad = resolve)));
  const jobId = await start();
  let holding: JobRow;
  for (;;) {
    holding = await jobRow(jobId);
    if (holding.lease_owner !== null && midway(holding)) break;
    expect(holding.status, 'the job ended before it could be killed midway').not.toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const victim = instances.find((i) => holding.lease_owner!.startsWith(`${i.id}.`))!;
  const survivor = instances.find((i) => i !== victim)!;
  await victim.kill();
  const at = Date.now();
  const finishers = new Set<string>();
  let job: JobRow;
  let takenOverMs = -1;
  for (;;) {
    job = await jobRow(jobId);
    if (job.lease_owner !== null && job.lease_owner !== holding.lease_owner) {
      if (finishers.size === 0) takenOverMs = Date.now() - at;
      finishers.add(job.lease_owner);
    }
    if (job.status === 'completed' || job.status === 'failed') break;
    if (Date.now() - at > TAKEOVER_BOUND_MS) throw new Error(`job ${jobId} stuck: ${JSON.stringify(job)}, killed ${victim.id}; the survivor ${survivor.id} said: ${survivor.stderr().replace(/^\[req_.*\n/gm, '').slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const doneMs = Date.now() - at;
  await advanceClock(survivor, ABANDONED_AFTER_MS + 1_000);
  stopLoad();
  const report = await load;
  instances[instances.indexOf(victim)] = await startInstance();
  return { report, survivor, killed: { jobId, at, holding, job, takenOverMs, doneMs, finishers: [...finishers] } };
}

async function advanceClock(instance: Instance, ms: number): Promise<void> {
  const res = await fetch(`${instance.origin}/__test__/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advanceMs: ms }) });
  expect(res.status).toBe(200);
}
