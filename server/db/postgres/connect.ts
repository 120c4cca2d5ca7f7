import { readFileSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { redactUrl } from '../../redis/connect.ts';
import { Pg } from './pg.ts';

/** Beside this module; the production build (one bundle beside SQLite's migrations/) copies them to pg-migrations/. */
const migrationsDir = new URL(import.meta.url.endsWith('.ts') ? './migrations/' : './pg-migrations/', import.meta.url);

/** Longest wait for a connection (a new one, or a free one of the pool under load) before the request fails. */
const CONNECT_TIMEOUT_MS = 5000;

/** Any constant: the key of the advisory lock under which one instance at a time migrates. */
const MIGRATION_LOCK = 7_413_901;

/**
 * Connects to the database the instances share and brings its schema up to date, or fails with
 * a clear message: an instance that cannot reach it must not start.
 */
export async function openPostgres(url: string, options: { maxConnections?: number } = {}): Promise<Pg> {
  // A database that does not take a connection in time fails the request (503) rather than holding it.
  // JIT off for every session: the server's statements are short, and the planner's guess for a recursive walk
  // (the collection list) had it compiled first, 2 s of the database's time at the collection cap, more than running it.
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    options: '-c jit=off',
  });
  // An idle connection that breaks (the database restarted) is dropped from the pool; without a listener it would crash the process.
  pool.on('error', (err) => console.error(`shelf server: PostgreSQL at ${redactUrl(url)}: ${err.message}`));
  try {
    await migrate(pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new Error(`could not open the database at ${redactUrl(url)}: ${(err as Error).message}`);
  }
  return new Pg(pool);
}

/**
 * Applies the migrations not yet applied, each in a transaction, under an advisory lock: when
 * several instances start at once, one migrates while the others wait, then find nothing to do.
 */
async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)');
    const applied = new Set((await client.query<{ name: string }>('SELECT name FROM migrations')).rows.map((r) => r.name));
    const files = readdirSync(migrationsDir).filter((f) => f.endsWith('.sql')).sort();
    for (const file of files) {
      if (applied.has(file)) continue;
      await client.query('BEGIN');
      try {
        await client.query(readFileSync(new URL(file, migrationsDir), 'utf8'));
        await client.query('INSERT INTO migrations (name, applied_at) VALUES ($1, $2)', [file, Date.now()]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}
