import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Collection } from '../../../lib/api/collections.ts';
import { iso } from '../../clock.ts';
import { invalid } from '../../http/api-error.ts';
import { SerializedJson } from '../../http/serialized-json.ts';
import type { ShareState } from '../collections.ts';
import type { TreeRow } from './collection-tree.ts';

/** A collection as both backends read it (COLLECTION_SELECT). */
export type CollectionRow = TreeRow & {
  seq: number;
  user_id: string;
  sort_order: number;
  name: string;
  icon: string;
  color: string;
  notes: string;
  share_slug: string;
  is_shared: number;
  created_at: number;
  bookmark_count: number;
};

const COLLECTION_COLUMNS = `c.seq, c.id, c.user_id, c.name, c.icon, c.color, c.parent_id, c.sort_order, c.notes, c.share_slug,
  c.is_shared, c.created_at, c.deleted_at, c.trash_root,
  c.active_count AS bookmark_count`;

/** bookmark_count: active bookmarks directly in the collection, kept by triggers. */
export const COLLECTION_SELECT = `SELECT ${COLLECTION_COLUMNS}
  FROM collections c`;

/**
 * One collection of a user with its depth, walking up its parent chain by primary key (at most 10
 * levels), rather than loading the user's whole tree: one statement of a few indexed reads, on both
 * backends. `user` and `id` are the placeholders of the dialect (`?` or `$1`, `$2`).
 */
export const collectionWithDepthSql = (user: string, id: string): string => `WITH RECURSIVE up(id, parent_id, depth) AS (
    SELECT id, parent_id, 0 FROM collections WHERE user_id = ${user} AND id = ${id}
    UNION ALL
    SELECT p.id, p.parent_id, up.depth + 1 FROM collections p JOIN up ON p.id = up.parent_id WHERE up.depth < 64
  )
  SELECT ${COLLECTION_COLUMNS}, (SELECT MAX(depth) FROM up) AS depth
  FROM collections c WHERE c.user_id = ${user} AND c.id = ${id}`;

export const toCollection = (r: CollectionRow, depth: number): Collection => ({
  id: r.id,
  name: r.name,
  icon: r.icon,
  color: r.color,
  parentId: r.parent_id,
  depth,
  order: r.sort_order,
  bookmarkCount: r.bookmark_count,
  notes: r.notes,
  branding: null,
  shareSlug: r.share_slug,
  isShared: r.is_shared === 1,
  createdAt: iso(r.created_at),
  deletedAt: r.deleted_at === null ? null : iso(r.deleted_at),
});

/** The order of GET /collections: parents before children, then siblings by their order. */
export const byTreeOrder = (a: Collection, b: Collection): number =>
  a.depth - b.depth ||
  (a.parentId ?? '').localeCompare(b.parentId ?? '') ||
  a.order - b.order ||
  a.createdAt.localeCompare(b.createdAt);

/** GET /collections's list as the bytes the router sends (the same on both backends and on a store thread). */
export const encodeList = (list: Collection[]): Uint8Array<ArrayBuffer> => new TextEncoder().encode(JSON.stringify(list));
export const serializedList = (...parts: Uint8Array[]): SerializedJson<Collection[]> => new SerializedJson(...parts);

export const shareState = (r: { share_slug: string; is_shared: number }): ShareState => ({
  shared: r.is_shared === 1,
  publicUrl: `/shared/${r.share_slug}`,
});

/** 16 url-safe characters, 96 random bits: not guessable, so an unshared slug reveals nothing. */
export const newSlug = (): string => randomBytes(12).toString('base64url');

/** The opaque page cursor: the (created_at, seq) of the last bookmark shown. */
const CursorKey = z.tuple([z.number().int(), z.number().int()]);
export const encodeCursor = (r: { created_at: number; seq: number }): string =>
  Buffer.from(JSON.stringify([r.created_at, r.seq])).toString('base64url');

/** The (created_at, seq) to read below: the cursor's, or above every bookmark for the first page. */
export function pageStart(cursor: string | undefined): z.infer<typeof CursorKey> {
  if (cursor === undefined) return [Number.MAX_SAFE_INTEGER, 0];
  try {
    return CursorKey.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw invalid('query', 'cursor', 'is not a cursor from a previous page; start again without it');
  }
}

/** A page of rows read with one row more than the limit: the rows shown and the cursor to the next page. */
export function pageOf<R extends { created_at: number; seq: number }>(rows: readonly R[], limit: number): { shown: R[]; continueCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { shown, continueCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
