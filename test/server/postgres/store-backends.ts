import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../server/db/database.ts';
import { openPostgres } from '../../../server/db/postgres/connect.ts';
import type { Pg } from '../../../server/db/postgres/pg.ts';
import { newId } from '../../../server/ids.ts';
import type { TestPostgres } from '../../support/postgres.ts';

/**
 * One database of either backend, for store tests that run the same assertions on SQLite and on
 * PostgreSQL. Fixture SQL is written once, with `?` placeholders.
 */
export interface TestDb {
  run(sql: string, params?: unknown[]): Promise<void>;
  all<R>(sql: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

export interface SqliteTestDb extends TestDb {
  kind: 'sqlite';
  db: ReturnType<typeof openDatabase>;
}

export interface PgTestDb extends TestDb {
  kind: 'postgres';
  db: Pg;
}

export function sqliteDb(): SqliteTestDb {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-store-'));
  const db = openDatabase(dir);
  return {
    kind: 'sqlite',
    db,
    run: async (sql, params = []) => void db.prepare(sql).run(...params),
    all: async <R>(sql: string, params: unknown[] = []) => db.prepare(sql).all(...params) as R[],
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `?` → `$1`, `$2`... */
const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

export async function postgresDb(cluster: TestPostgres): Promise<PgTestDb> {
  const db = await openPostgres(await cluster.createMigratedDatabase(), { maxConnections: 4 });
  return {
    kind: 'postgres',
    db,
    run: async (sql, params = []) => void (await db.run(numbered(sql), params)),
    all: <R>(sql: string, params: unknown[] = []) => db.all(numbered(sql), params) as Promise<R[]>,
    close: () => db.close(),
  };
}

export async function addUser(db: TestDb): Promise<string> {
  const id = newId('usr');
  await db.run("INSERT INTO users (id, name, email, plan, created_at) VALUES (?, 'Test', ?, 'pro', 0)", [id, `${id}@example.test`]);
  return id;
}

export async function addCollection(db: TestDb, userId: string, deletedAt: number | null = null): Promise<string> {
  const id = newId('col');
  await db.run(
    'INSERT INTO collections (id, user_id, name, share_slug, created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, 0, 0, ?)',
    [id, userId, `Collection ${id}`, `slug-${id}`, deletedAt],
  );
  return id;
}

/** Bookmarks written straight to the table (many at once), titled `title` or "Title <i>". */
export async function insertBookmarks(db: TestDb, userId: string, rows: { createdAt: number; title?: string }[]): Promise<void> {
  const CHUNK = 500;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    const params = chunk.flatMap((r, i) => {
      const n = start + i;
      const url = `https://bulk${n}.example/${newId('p')}`;
      return [newId('bm'), userId, url, url, r.title ?? `Title ${n}`, `bulk${n}.example`, r.createdAt, r.createdAt];
    });
    await db.run(
      `INSERT INTO bookmarks (id, user_id, url, url_key, title, domain, metadata_status, link_status, last_checked_at, created_at, updated_at)
       VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?, 'done', 'ok', 0, ?, ?)").join(', ')}`,
      params,
    );
  }
}
