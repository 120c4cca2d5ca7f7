import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgres } from '../../server/db/postgres/connect.ts';
import { freePort } from './free-port.ts';

/**
 * A throwaway PostgreSQL cluster (Debian's PostgreSQL 15: initdb + the server binary) on a free
 * loopback port, its data in a temp dir, durability off (nothing here must survive a crash).
 * Each caller of `createDatabase` gets an empty database of its own.
 */
export interface TestPostgres {
  /** postgres://… of the cluster's `postgres` database, as the superuser. */
  adminUrl: string;
  /** A new empty database; answers its URL. */
  createDatabase(): Promise<string>;
  /** The name of a database of the cluster with every migration applied, made at the first call; nobody stays connected to it. */
  migratedTemplate(): Promise<string>;
  /**
   * A new database with every migration applied, a copy of migratedTemplate (copying costs the cluster some 120 ms of
   * CPU, running the migrations into a new database some 300 ms); answers its URL.
   */
  createMigratedDatabase(): Promise<string>;
  stop(): Promise<void>;
  /** A fast shutdown (connections cut, as a restart of the database does); its data is kept for `start`. */
  shutdown(): Promise<void>;
  /** Starts it again on the same port and data (after `shutdown`). */
  start(): Promise<void>;
  /** `shutdown`, then `start`. */
  restart(): Promise<void>;
}

const BIN = '/usr/lib/postgresql/15/bin';
const SUPERUSER = 'shelf';
const START_TIMEOUT_MS = 30_000;

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** PostgreSQL refuses to run as root: as root, the cluster belongs to the package's `postgres` user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('running as root, PostgreSQL needs the `postgres` user: apt-get install -y postgresql-15');
  }
}

/**
 * A cluster's files as initdb leaves them, made once per machine and kept in the temp dir: a new cluster copies them
 * (a tenth of a second) instead of running initdb (two seconds of CPU), and a run of the tests starts some twenty.
 * Made aside and renamed into place, so that a process never copies a half-made template, whichever process wins.
 */
function templateCluster(user: { uid: number; gid: number } | undefined): string {
  const template = join(tmpdir(), `shelf-pg15-template-${process.getuid?.() ?? 'user'}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const aside = mkdtempSync(join(tmpdir(), 'shelf-pg-template-'));
  if (user) chownSync(aside, user.uid, user.gid);
  try {
    execFileSync(
      join(BIN, 'initdb'),
      ['-D', join(aside, 'data'), '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync'],
      { stdio: 'pipe', ...user },
    );
    renameSync(join(aside, 'data'), template);
  } catch (err) {
    // Another process may have put its template in place first; any other failure is initdb's.
    if (!existsSync(join(template, 'PG_VERSION'))) {
      const output = (err as { stderr?: Buffer }).stderr?.toString() ?? String(err);
      throw new Error(`initdb failed (is Debian's postgresql-15 installed?):\n${output}`);
    }
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
  return template;
}

let databases = 0;

/**
 * One connection per process and cluster for creating databases, kept: a PostgreSQL backend's start and exit cost
 * some 45 ms of CPU on this VM (the fork's page faults), and the project creates a hundred databases a run.
 * Idle, it does not keep the process alive; cut by a restart of the cluster, the pool drops it and opens another.
 */
const adminPools = new Map<string, pg.Pool>();

function adminPool(adminUrl: string): pg.Pool {
  let pool = adminPools.get(adminUrl);
  if (pool === undefined) {
    pool = new pg.Pool({ connectionString: adminUrl, max: 1, idleTimeoutMillis: 0, allowExitOnIdle: true });
    pool.on('error', () => undefined);
    adminPools.set(adminUrl, pool);
  }
  return pool;
}

async function endAdminPool(adminUrl: string): Promise<void> {
  const pool = adminPools.get(adminUrl);
  adminPools.delete(adminUrl);
  await pool?.end();
}

/**
 * A new database in the cluster of `adminUrl` (a superuser's URL), empty or a copy of `template` (a database of that
 * cluster nobody is connected to); answers its URL. FILE_COPY copies the template's files and takes a checkpoint:
 * 90 ms of the cluster's CPU against 240 ms for PostgreSQL 15's default, WAL_LOG, which writes every block through the WAL.
 */
export async function createDatabase(adminUrl: string, template?: string): Promise<string> {
  const name = `shelf_${process.pid}_${++databases}_${Date.now().toString(36)}`;
  await adminPool(adminUrl).query(`CREATE DATABASE ${name} TEMPLATE ${template ?? 'template1'} STRATEGY FILE_COPY`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface PostgresOptions {
  /**
   * false for a cluster of many databases that live minutes and whose tests analyze what they need themselves: the
   * launcher starts a worker in each database in turn (a hundred databases, one every 0.6 s), each a new process.
   */
  autovacuum?: boolean;
}

export async function startPostgres({ autovacuum = true }: PostgresOptions = {}): Promise<TestPostgres> {
  const settings = autovacuum ? [] : ['autovacuum=off'];
  const user = runAs();
  const template = templateCluster(user);
  const dir = mkdtempSync(join(tmpdir(), 'shelf-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  try {
    execFileSync('cp', ['-a', template, data], { stdio: 'pipe', ...user });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      let current = await startOn(dir, data, port, user, settings);
      const adminUrl = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
      const shutdown = async () => {
        await endAdminPool(adminUrl);
        await current.shutdown();
      };
      const start = async () => {
        current = await startOn(dir, data, port, user, settings);
      };
      let template: Promise<string> | undefined;
      const migratedTemplate = () =>
        (template ??= (async () => {
          const url = await createDatabase(adminUrl);
          await (await openPostgres(url)).close();
          return new URL(url).pathname.slice(1);
        })());
      return {
        adminUrl,
        createDatabase: () => createDatabase(adminUrl),
        migratedTemplate,
        createMigratedDatabase: async () => createDatabase(adminUrl, await migratedTemplate()),
        shutdown,
        start,
        async restart() {
          await shutdown();
          await start();
        },
        async stop() {
          await shutdown();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      if (attempt === 3) {
        rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
}

/** One postgres process on the cluster's data; `shutdown` is the "fast" one, which ends the sessions still open rather than waiting for them. */
function startOn(
  dir: string,
  data: string,
  port: number,
  user: { uid: number; gid: number } | undefined,
  settings: readonly string[],
): Promise<{ shutdown(): Promise<void> }> {
  const child = spawn(
    join(BIN, 'postgres'),
    [
      '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300',
      ...settings.flatMap((setting) => ['-c', setting]),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], ...user },
  );
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  let output = '';
  let ready = false;
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      if (ready) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`postgres ${why}:\n${output.trim()}`));
    };
    const timer = setTimeout(() => fail(`was not ready within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    child.once('error', (err) => fail(`could not start (${err.message})`));
    child.once('exit', (code) => fail(`exited (code ${code}) before it was ready`));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (ready) return; // later output is drained, not kept
      output += chunk;
      if (!output.includes('database system is ready to accept connections')) return;
      ready = true;
      clearTimeout(timer);
      resolve({
        async shutdown() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
          await exited;
        },
      });
    });
    child.stdout!.resume();
  });
}
