import { afterAll, beforeAll, expect } from 'vitest';
import type { ErrorCode } from '../../../lib/api/errors.ts';
import type { Pg } from '../../../server/db/postgres/pg.ts';
import { ApiError } from '../../../server/http/api-error.ts';
import { type TestPostgres, startPostgres } from '../../support/postgres.ts';
import { type PgTestDb, type SqliteTestDb, type TestDb, postgresDb, sqliteDb } from './store-backends.ts';

export { addUser } from './store-backends.ts';
export { marks } from '../collections-tags-fixtures.ts';

/**
 * The collections and tags store tests: the same assertions on SQLite and on PostgreSQL (one
 * throwaway cluster per test file), a fresh database for each test, and test data written
 * straight to the tables with `?` placeholders.
 */

export const BACKENDS = ['sqlite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];
export type BackendDb = SqliteTestDb | PgTestDb;

let cluster: TestPostgres | undefined;
const opened: TestDb[] = [];

/** Starts the file's cluster before its tests and stops it (closing every database) after them. */
export function withCluster(): void {
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
    await cluster?.stop();
  });
}

/** A new, migrated database of the backend. */
export async function freshDb(backend: Backend): Promise<BackendDb> {
  let db: BackendDb;
  if (backend === 'sqlite') db = sqliteDb();
  else if (cluster) db = await postgresDb(cluster);
  else throw new Error('a PostgreSQL database needs withCluster() in the test file');
  opened.push(db);
  return db;
}

/** The PostgreSQL pool of a test that runs on that backend only. */
export function pgOf(db: BackendDb): Pg {
  if (db.kind !== 'postgres') throw new Error('this test runs on PostgreSQL only');
  return db.db;
}

export interface SeedOptions {
  collectionId?: string | null;
  /** Ids of tags each bookmark carries, linked in this order. */
  tagIds?: string[];
  deletedAt?: number | null;
  trashRoot?: string | null;
  /** created_at of the i-th bookmark; by default a distinct, increasing time. */
  createdAt?: (i: number) => number;
}

/** Rows a statement writes at most: well within either backend's count of parameters. */
const ROWS_A_STATEMENT = 500;

async function insertRows(db: TestDb, head: string, row: string, rows: readonly unknown[][]): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_A_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_A_STATEMENT);
    await db.run(`${head} VALUES ${chunk.map(() => row).join(', ')}`, chunk.flat());
  }
}

let seeded = 0;

/** Inserts n bookmarks for the user; answers their ids in insertion (seq) order. */
export async function seedBookmarks(db: TestDb, userId: string, n: number, options: SeedOptions = {}): Promise<string[]> {
  const rows = Array.from({ length: n }, (_, i) => {
    const k = ++seeded;
    const createdAt = options.createdAt?.(i) ?? 1_700_000_000_000 + k;
    const url = `https://seed.example/${k}`;
    return [`bm_seed${k}`, userId, url, url, `Seeded ${k}`, options.collectionId ?? null, createdAt, createdAt, createdAt,
      options.deletedAt ?? null, options.trashRoot ?? null];
  });
  await insertRows(
    db,
    `INSERT INTO bookmarks (id, user_id, url, url_key, title, collection_id, domain, metadata_status, link_status,
       last_checked_at, created_at, updated_at, deleted_at, trash_root)`,
    "(?, ?, ?, ?, ?, ?, 'seed.example', 'complete', 'unchecked', ?, ?, ?, ?, ?)",
    rows,
  );
  const ids = rows.map((r) => r[0] as string);
  for (const tagId of options.tagIds ?? []) await link(db, ids, tagId);
  return ids;
}

/** Gives these bookmarks the tag, linked in this order. */
export const link = (db: TestDb, bookmarkIds: readonly string[], tagId: string): Promise<void> =>
  insertRows(db, 'INSERT INTO bookmark_tags (bookmark_id, tag_id)', '(?, ?)', bookmarkIds.map((id) => [id, tagId]));

/** Plain tags named `<prefix><i>` for i in 1..n, written straight to the table. */
export const insertTags = (db: TestDb, userId: string, prefix: string, n: number): Promise<void> =>
  insertRows(
    db,
    'INSERT INTO tags (id, user_id, name, name_key, created_at)',
    '(?, ?, ?, ?, 0)',
    Array.from({ length: n }, (_, i) => [`tag_${prefix}${i + 1}`, userId, `${prefix}${i + 1}`, `${prefix}${i + 1}`]),
  );

/**
 * A tag tree written straight to the table: `root`, its children `<root>/c<i>` and theirs
 * `<root>/c<i>/g<j>`, `width` of each (1 + width + width² tags). Answers
 * the tags' ids, parents before children, the root's first.
 */
export async function insertTree(db: TestDb, userId: string, root: string, width: number): Promise<string[]> {
  const rows: unknown[][] = [];
  const add = (name: string, parentId: string | null): string => {
    const id = `tag_${userId}_${name}`;
    rows.push([id, userId, name, name.toLowerCase(), parentId]);
    return id;
  };
  const rootId = add(root, null);
  for (let i = 0; i < width; i++) {
    const child = add(`${root}/c${i}`, rootId);
    for (let j = 0; j < width; j++) add(`${root}/c${i}/g${j}`, child);
  }
  await insertRows(db, 'INSERT INTO tags (id, user_id, name, name_key, parent_id, created_at)', '(?, ?, ?, ?, ?, 0)', rows);
  return rows.map((r) => r[0] as string);
}

/** The number a one-value query (a COUNT) answers. */
export async function count(db: TestDb, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await db.all<Record<string, unknown>>(sql, params);
  return Number(Object.values(row ?? {})[0]);
}

export async function rawRow(db: TestDb, table: 'bookmarks' | 'collections' | 'tags', id: string): Promise<Record<string, unknown> | undefined> {
  return (await db.all<Record<string, unknown>>(`SELECT * FROM ${table} WHERE id = ?`, [id]))[0];
}

/** Awaits a store call that must fail with an ApiError of this code; answers its message. */
export async function rejection(call: Promise<unknown>, code: ErrorCode): Promise<string> {
  const err: unknown = await call.then(
    (value) => new Error(`expected ${code}, got ${JSON.stringify(value)}`),
    (thrown: unknown) => thrown,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).code, (err as Error).message).toBe(code);
  return (err as ApiError).message;
}
