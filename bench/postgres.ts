import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { startPostgres } from '../test/support/postgres.ts';
import { startRedis } from '../test/support/redis.ts';
import { type ServerProcess, startServerProcess } from '../test/support/server-process.ts';
import { apiClient } from './api.ts';
import { Load } from './http-load.ts';
import { importIntoEmpty } from './jobs.ts';
import { netscapeFile } from './netscape-file.ts';
import { startShelfServerOn } from './processes.ts';
import { SIZES, exportRows, ratioRows, seed, timeRequests } from './scale.ts';
import { median } from './stats.ts';
import { type Row, failureRow, fmtCount, measured } from './table.ts';
import type { BenchSettings, Workspace } from './workspace.ts';

const SECTION = 'PostgreSQL';
const root = new URL('../', import.meta.url).pathname;
const run = promisify(execFile);

/**
 * Issue 12 on PostgreSQL: the scale section's requests against a server on `--database`, at the
 * same sizes (each library seeded as the scale section seeds SQLite, then moved over with
 * copy-to-postgres); and requests a second to `GET /bookmarks?limit=50` from one instance and
 * from two on PostgreSQL + Redis, each loaded by its own wrk.
 */
export async function postgresSection(ws: Workspace, settings: BenchSettings): Promise<Row[]> {
  const cluster = await startPostgres();
  try {
    return [
      await importRow(ws, cluster.createDatabase),
      ...(await scaleRows(ws, settings, cluster.createDatabase)),
      ...(await instanceRows(ws, settings, cluster.createDatabase)),
    ];
  } finally {
    await cluster.stop();
  }
}

async function copiedLibrary(ws: Workspace, size: number, name: string, createDatabase: () => Promise<string>) {
  const seeded = await seed(ws, size, name);
  const url = await createDatabase();
  const started = performance.now();
  await run('npm', ['run', '--silent', 'copy-to-postgres', '--', '--data', seeded.dir, '--database', url], { cwd: root, maxBuffer: 1 << 24 });
  return { ...seeded, url, copyMs: performance.now() - started };
}

const startOn = (url: string, more: string[] = []): Promise<ServerProcess> =>
  startServerProcess('server/main.ts', ['--port', '0', '--database', url, '--raise-limits', ...more]);

/** The bench library's Netscape file imported into an empty library on PostgreSQL, beside the same on SQLite. */
async function importRow(ws: Workspace, createDatabase: () => Promise<string>): Promise<Row> {
  const html = Buffer.from(netscapeFile(ws.library));
  const count = ws.library.bookmarks.length;
  return measured(
    { section: SECTION, measurement: `import of a Netscape HTML file of ${fmtCount(count)} bookmarks (reserve → completed)`, target: 'reported' },
    async () => {
      const rate = async (storeArgs: string[]): Promise<string> => {
        const shelf = await startShelfServerOn(storeArgs);
        try {
          const { ms, value: job } = await importIntoEmpty(shelf, html);
          if (job.result?.imported !== count) throw new Error(`${job.result?.imported ?? 0} of ${count} bookmarks imported`);
          return `${fmtCount(Math.round(count / (ms / 1000)))} bookmarks/s (${(ms / 1000).toFixed(1)} s)`;
        } finally {
          await shelf.stop();
        }
      };
      const onPostgres = await rate(['--database', await createDatabase()]);
      return { result: `PostgreSQL: ${onPostgres}`, beside: `SQLite: ${await rate(['--data', ws.emptyDir('pg-import-sqlite')])}`, verdict: '' };
    },
  );
}

async function scaleRows(ws: Workspace, settings: BenchSettings, createDatabase: () => Promise<string>): Promise<Row[]> {
  const runs = Math.max(5, Math.round(settings.evaluations / 5));
  const figures = new Map<string, number[]>();
  const copies: string[] = [];
  const stores: { storeArgs: string[]; token: string }[] = [];
  for (const size of SIZES) {
    let server: ServerProcess | undefined;
    try {
      const library = await copiedLibrary(ws, size, 'pg-scale', createDatabase);
      copies.push(`${fmtCount(size)}: ${(library.copyMs / 1000).toFixed(1)} s`);
      stores.push({ storeArgs: ['--database', library.url], token: library.token });
      server = await startOn(library.url);
      await timeRequests([{ api: apiClient(server.url, library.token), seeded: library }], runs, figures);
    } catch (err) {
      return [failureRow({ section: SECTION, measurement: `at ${fmtCount(size)} bookmarks`, target: '' }, err)];
    } finally {
      await server?.stop();
    }
  }
  const rows = ratioRows(SECTION, figures, runs);
  rows.push({ section: SECTION, measurement: 'copy-to-postgres of the seeded SQLite library', result: copies.join(' · '), beside: '', target: '', verdict: '' });
  rows.push(...(await exportRows(SECTION, stores)));
  return rows;
}

/** One instance, then two (each loaded by its own wrk at once), on one database and one Redis. */
async function instanceRows(ws: Workspace, settings: BenchSettings, createDatabase: () => Promise<string>): Promise<Row[]> {
  const redis = await startRedis();
  const servers: ServerProcess[] = [];
  try {
    const library = await copiedLibrary(ws, 10_000, 'pg-instances', createDatabase);
    for (let i = 0; i < 2; i++) servers.push(await startOn(library.url, ['--redis', redis.url]));
    const target = (s: ServerProcess) => ({
      url: `${s.url}/bookmarks?limit=50`,
      method: 'GET' as const,
      headers: { Authorization: `Bearer ${library.token}` },
    });
    const loads = servers.map((s, i) => new Load(target(s), settings.load, ws.file(`postgres-load-${i}.lua`), s.pid));
    for (const load of loads) await load.warmUp();
    const one: number[] = [];
    const two: number[] = [];
    for (let round = 0; round < settings.load.rounds; round++) {
      one.push((await loads[0]!.measure()).requestsPerSecond);
      const both = await Promise.all(loads.map((l) => l.measure()));
      two.push(both.reduce((sum, r) => sum + r.requestsPerSecond, 0));
    }
    const [rate1, rate2] = [median(one), median(two)];
    return [
      {
        section: SECTION,
        measurement: 'GET /bookmarks?limit=50 req/s: 1 instance → 2 instances (PostgreSQL + Redis, 10,000 bookmarks)',
        result: `${rate1.toFixed(0)} → ${rate2.toFixed(0)} (median of ${settings.load.rounds})`,
        beside: `2 ÷ 1: ${(rate2 / rate1).toFixed(2)} × on ${availableParallelism()} cores shared by wrk, PostgreSQL, Redis and the instances`,
        target: 'reported',
        verdict: '',
      },
    ];
  } catch (err) {
    return [failureRow({ section: SECTION, measurement: '1 → 2 instances', target: '' }, err)];
  } finally {
    for (const s of servers) await s.stop();
    await redis.stop();
  }
}
