import { afterAll, beforeAll, expect } from 'vitest';
import type { ErrorCode } from '../../../lib/api/errors.ts';
import type { Pg } from '../../../server/db/postgres/pg.ts';
import { ApiError } from '../../../server/http/api-error.ts';
import { type TestPostgres, startPostgres } from '../../support/postgres.ts';
import { freshDb as freshDbOf } from './pg-fixtures.ts';

export { addUser } from './pg-fixtures.ts';

/**
 * Store-level tests of the PostgreSQL stores: one throwaway cluster per test file, a fresh
 * migrated database per call of `freshDb`, and test data written straight to the tables.
 */

let cluster: TestPostgres | undefined;
const opened: Pg[] = [];

/** Starts the file's cluster before its tests and stops it (closing every pool) after them. */
export function withCluster(): void {
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
    await cluster?.stop();
  });
}

/** A new, migrated database of the file's cluster. */
export async function freshDb(): Promise<Pg> {
  if (!cluster) throw new Error('freshDb needs withCluster() in the test file');
  const db = await freshDbOf(cluster);
  opened.push(db);
  return db;
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

let seeded = 0;

/** Inserts n bookmarks for the user in one statement; answers their ids in insertion (seq) order. */
export async function seedBookmarks(db: Pg, userId: string, n: number, options: SeedOptions = {}): Promise<string[]> {
  const rows = Array.from({ length: n }, (_, i) => {
    const k = ++seeded;
    return { id: `bm_seed${k}`, k, createdAt: options.createdAt?.(i) ?? 1_700_000_000_000 + k };
  });
  await db.run(
    `INSERT INTO bookmarks (id, user_id, url, url_key, title, collection_id, domain, metadata_status, link_status,
       last_checked_at, created_at, updated_at, deleted_at, trash_root)
     SELECT r.id, $1, 'https://seed.example/' || r.k, 'https://seed.example/' || r.k, 'Seeded ' || r.k, $2, 'seed.example',
       'complete', 'unchecked', r.created, r.created, r.created, $3, $4
     FROM unnest($5::text[], $6::bigint[], $7::bigint[]) WITH ORDINALITY AS r(id, k, created, n) ORDER BY r.n`,
    [
      userId,
      options.collectionId ?? null,
      options.deletedAt ?? null,
      options.trashRoot ?? null,
      rows.map((r) => r.id),
      rows.map((r) => r.k),
      rows.map((r) => r.createdAt),
    ],
  );
  for (const tagId of options.tagIds ?? []) await link(db, rows.map((r) => r.id), tagId);
  return rows.map((r) => r.id);
}

/** Gives these bookmarks the tag, linked in this order. */
export async function link(db: Pg, bookmarkIds: readonly string[], tagId: string): Promise<void> {
  await db.run(
    'INSERT INTO bookmark_tags (bookmark_id, tag_id) SELECT b.id, $2 FROM unnest($1::text[]) WITH ORDINALITY AS b(id, n) ORDER BY b.n',
    [bookmarkIds, tagId],
  );
}

/** The number a one-value query (a COUNT) answers. */
export async function count(db: Pg, sql: string, params: readonly unknown[] = []): Promise<number> {
  const row = await db.get(sql, params);
  return Number(Object.values(row ?? {})[0]);
}

export const rawRow = (db: Pg, table: 'bookmarks' | 'collections' | 'tags', id: string): Promise<Record<string, unknown> | undefined> =>
  db.get(`SELECT * FROM ${table} WHERE id = $1`, [id]);

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
