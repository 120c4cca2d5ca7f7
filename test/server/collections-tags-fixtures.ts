import type { Collection } from '../../lib/api/collections.ts';
import { tagKey, withAncestors } from '../../server/store/shared/tag-names.ts';
import type { RawDb } from '../support/raw-db.ts';

/**
 * Test data for the collections and tags tests, written straight to the
 * database (either backend): a thousand bookmarks in a few statements instead
 * of a thousand rate-limited requests.
 */

export interface SeedOptions {
  collectionId?: string | null;
  tags?: string[];
  deletedAt?: number | null;
  trashRoot?: string | null;
  title?: string | ((i: number) => string);
  /** The i-th bookmark's URL; by default one of seed.example's. */
  url?: (i: number) => string;
  description?: string;
  /** created_at of the i-th bookmark; by default a distinct, increasing time. */
  createdAt?: (i: number) => number;
}

/** Rows a statement writes at most: well within either backend's count of parameters. */
const ROWS_A_STATEMENT = 500;

let seeded = 0;

/** The ids of the user's tags of these names, each made (with its ancestors) when missing. */
async function tagIds(db: RawDb, userId: string, names: readonly string[], now: number): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    let parentId: string | null = null;
    for (const level of withAncestors(name)) {
      const found: { id: string } | undefined = await db.get('SELECT id FROM tags WHERE user_id = ? AND name_key = ?', userId, tagKey(level));
      let id = found?.id;
      if (id === undefined) {
        id = `tag_seed${++seeded}`;
        await db.run(
          'INSERT INTO tags (id, user_id, name, name_key, color, parent_id, created_at) VALUES (?, ?, ?, ?, NULL, ?, ?)',
          id, userId, level, tagKey(level), parentId, now,
        );
      }
      parentId = id;
    }
    ids.push(parentId!);
  }
  return ids;
}

/** Inserts n bookmarks for the user; returns their ids in insertion order. */
export async function seedBookmarks(db: RawDb, userId: string, n: number, options: SeedOptions = {}): Promise<string[]> {
  const rows = Array.from({ length: n }, (_, i) => {
    const k = ++seeded;
    const url = options.url?.(i) ?? `https://seed.example/${k}`;
    const title = typeof options.title === 'function' ? options.title(i) : (options.title ?? `Seeded ${k}`);
    const createdAt = options.createdAt?.(i) ?? 1_700_000_000_000 + k;
    return [`bm_seed${k}`, userId, url, url, title, options.description ?? '', options.collectionId ?? null, createdAt, createdAt, createdAt,
      options.deletedAt ?? null, options.trashRoot ?? null];
  });
  const ids = rows.map((r) => r[0] as string);
  const tags = options.tags ? await tagIds(db, userId, options.tags, rows[0]?.[7] as number) : [];
  for (let start = 0; start < rows.length; start += ROWS_A_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_A_STATEMENT);
    await db.run(
      `INSERT INTO bookmarks (id, user_id, url, url_key, title, description, collection_id, domain, metadata_status, link_status,
         last_checked_at, created_at, updated_at, deleted_at, trash_root)
       VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?, ?, 'seed.example', 'complete', 'unchecked', ?, ?, ?, ?, ?)").join(', ')}`,
      ...chunk.flat(),
    );
    const links = chunk.flatMap((r) => [...new Set(tags)].map((tag) => [r[0], tag]));
    for (let at = 0; at < links.length; at += ROWS_A_STATEMENT) {
      const some = links.slice(at, at + ROWS_A_STATEMENT);
      await db.run(`INSERT INTO bookmark_tags (bookmark_id, tag_id) VALUES ${some.map(() => '(?, ?)').join(', ')}`, ...some.flat());
    }
  }
  return ids;
}

/** The number a one-value query (a COUNT) answers. */
export async function count(db: RawDb, sql: string, ...params: unknown[]): Promise<number> {
  const row = await db.get<Record<string, unknown>>(sql, ...params);
  return Number(Object.values(row ?? {})[0]);
}

export const rawRow = (db: RawDb, table: 'bookmarks' | 'collections' | 'tags', id: string): Promise<Record<string, unknown> | undefined> =>
  db.get(`SELECT * FROM ${table} WHERE id = ?`, id);

/** `?, ?, ?` for a list bound as separate parameters. */
export const marks = (values: readonly unknown[]): string => values.map(() => '?').join(', ');

/** Names and orders of the user's active collections under a parent, in their order. */
export const childrenOf = (all: readonly Collection[], parentId: string | null): [string, number][] =>
  all
    .filter((c) => c.parentId === parentId)
    .sort((a, b) => a.order - b.order)
    .map((c) => [c.name, c.order]);
