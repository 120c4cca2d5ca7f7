import type Database from 'better-sqlite3';
import type { Collection } from '../../lib/api/collections.ts';
import { setBookmarkTags } from '../../server/store/sqlite/tag-rows.ts';

/**
 * Test data for the collections and tags tests, written straight to the
 * database: a thousand bookmarks in one transaction instead of a thousand
 * rate-limited requests.
 */

export type Db = Database.Database;

export interface SeedOptions {
  collectionId?: string | null;
  tags?: string[];
  deletedAt?: number | null;
  trashRoot?: string | null;
  title?: string | ((i: number) => string);
  description?: string;
  /** created_at of the i-th bookmark; by default a distinct, increasing time. */
  createdAt?: (i: number) => number;
}

let seeded = 0;

/** Inserts n bookmarks for the user; returns their ids in insertion order. */
export function seedBookmarks(db: Db, userId: string, n: number, options: SeedOptions = {}): string[] {
  const insert = db.prepare(
    `INSERT INTO bookmarks (id, user_id, url, url_key, title, description, collection_id, domain, metadata_status, link_status,
       last_checked_at, created_at, updated_at, deleted_at, trash_root)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'seed.example', 'complete', 'unchecked', ?, ?, ?, ?, ?)`,
  );
  return db.transaction(() =>
    Array.from({ length: n }, (_, i) => {
      const k = ++seeded;
      const id = `bm_seed${k}`;
      const url = `https://seed.example/${k}`;
      const title = typeof options.title === 'function' ? options.title(i) : (options.title ?? `Seeded ${k}`);
      const createdAt = options.createdAt?.(i) ?? 1_700_000_000_000 + k;
      insert.run(id, userId, url, url, title, options.description ?? '', options.collectionId ?? null, createdAt, createdAt, createdAt,
        options.deletedAt ?? null, options.trashRoot ?? null);
      if (options.tags) setBookmarkTags(db, userId, id, options.tags, createdAt);
      return id;
    }),
  )();
}

export const count = (db: Db, sql: string, ...params: unknown[]): number => db.prepare(sql).pluck().get(...params) as number;

export const rawRow = (db: Db, table: 'bookmarks' | 'collections' | 'tags', id: string): Record<string, unknown> | undefined =>
  db.prepare(`SELECT * FROM ${table} WHERE id = ?`).get(id) as Record<string, unknown> | undefined;

/** Names and orders of the user's active collections under a parent, in their order. */
export const childrenOf = (all: readonly Collection[], parentId: string | null): [string, number][] =>
  all
    .filter((c) => c.parentId === parentId)
    .sort((a, b) => a.order - b.order)
    .map((c) => [c.name, c.order]);
