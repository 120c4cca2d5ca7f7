import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
// For its side effect: BIGINT and NUMERIC read as numbers, as the server reads them.
import '../../server/db/postgres/pg.ts';

/**
 * A connection of the test's own to a server's database, whichever backend it is, for tests that
 * write fixtures in bulk or read raw rows. Statements use `?` placeholders (SQL both dialects
 * read the same); on PostgreSQL they become `$1`, `$2`, ….
 */
export interface RawDb {
  get<R>(sql: string, ...params: unknown[]): Promise<R | undefined>;
  all<R>(sql: string, ...params: unknown[]): Promise<R[]>;
  /** Answers the number of rows changed. */
  run(sql: string, ...params: unknown[]): Promise<number>;
  close(): Promise<void>;
}

export interface DatabaseOf {
  dataDir: string;
  /** The server's --database, or null for SQLite in dataDir. */
  databaseUrl: string | null;
}

export function openRawDb(target: DatabaseOf): RawDb {
  return target.databaseUrl === null ? sqlite(join(target.dataDir, 'shelf.db')) : postgres(target.databaseUrl);
}

function sqlite(path: string): RawDb {
  const db = new Database(path);
  db.pragma('busy_timeout = 5000');
  return {
    get: async <R>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as R | undefined,
    all: async <R>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as R[],
    run: async (sql, ...params) => db.prepare(sql).run(...params).changes,
    close: async () => {
      db.close();
    },
  };
}

function postgres(url: string): RawDb {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // An idle connection cut by a restart of the database (the fault tests) is dropped; unheard, it would crash the test run.
  pool.on('error', () => undefined);
  const query = async <R>(sql: string, params: unknown[]) => {
    let n = 0;
    const result = await pool.query(sql.replace(/\?/g, () => `$${++n}`), params);
    return { rows: result.rows as R[], changed: result.rowCount ?? 0 };
  };
  return {
    get: async <R>(sql: string, ...params: unknown[]) => (await query<R>(sql, params)).rows[0],
    all: async <R>(sql: string, ...params: unknown[]) => (await query<R>(sql, params)).rows,
    run: async (sql, ...params) => (await query(sql, params)).changed,
    close: () => pool.end(),
  };
}
