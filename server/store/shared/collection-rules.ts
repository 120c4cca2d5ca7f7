import { COLLECTION_ROW_LIMIT, MAX_COLLECTIONS_PER_USER, MAX_COLLECTION_DEPTH } from '../../../lib/api/collections.ts';
import { ApiError, conflict, invalid, notFound } from '../../http/api-error.ts';
import type { CollectionTree, TreeRow } from './collection-tree.ts';

/**
 * The rules of the collection tree that do not depend on the database: what may nest where,
 * where a restored subtree lands, how siblings are numbered, and the refusals.
 */

export const alreadyTrashed = (id: string): ApiError => conflict(`collection ${id} is already in the trash`);
export const notTrashed = (id: string): ApiError => conflict(`collection ${id} is not in the trash`);
export const trashedNotWritable = (id: string): ApiError => conflict(`collection ${id} is in the trash; restore it first`);

export const tooLarge = (verb: 'delete' | 'restore', rows: number): ApiError =>
  new ApiError(
    'COLLECTION_TOO_LARGE',
    verb === 'delete'
      ? `Deleting this collection would touch ${rows} rows (the collection, its child collections and all their bookmarks, ` +
          `trashed ones included); the limit is ${COLLECTION_ROW_LIMIT}. Nothing was changed. Trash its child collections first, ` +
          'or move its bookmarks elsewhere, or trash and permanently delete them, then retry.'
      : `Restoring this collection would touch ${rows} rows (the collection, its child collections and all their bookmarks, ` +
          `trashed ones included); the limit is ${COLLECTION_ROW_LIMIT}. Nothing was changed. Restore some of its bookmarks first ` +
          '(they return unsorted), retry, then move them back with POST /bookmarks/bulk/move. ' +
          'Do not empty the trash for this: it destroys bookmarks that should come back.',
  );

/** Refuses a trash or restore of more rows than the 1,000-row rule allows. */
export function checkRowLimit(verb: 'delete' | 'restore', rows: number): void {
  if (rows > COLLECTION_ROW_LIMIT) throw tooLarge(verb, rows);
}

/** A parent must be one of the user's active collections; anything else is as unknown as a missing id. */
export function checkActiveParent(tree: CollectionTree, parentId: string): void {
  if (tree.get(parentId)?.deleted_at !== null) throw notFound('parent collection', parentId);
}

export function checkDepth(depth: number): void {
  if (depth > MAX_COLLECTION_DEPTH) {
    throw invalid('body', 'parentId', `collections nest at most ${MAX_COLLECTION_DEPTH + 1} levels deep (depth 0 to ${MAX_COLLECTION_DEPTH})`);
  }
}

/** Refuses a new collection under `parentId` (null: a root) that would be unknown or too deep, or one past the user's cap. */
export function checkNewChild(tree: CollectionTree, parentId: string | null): void {
  if (tree.size >= MAX_COLLECTIONS_PER_USER) {
    throw conflict(
      `the account has ${tree.size} collections, trashed ones included, of at most ${MAX_COLLECTIONS_PER_USER}; ` +
        'delete collections (and empty them from the trash) first',
    );
  }
  if (parentId === null) return;
  checkActiveParent(tree, parentId);
  checkDepth(tree.depth(parentId) + 1);
}

/** Refuses moving the collection's active subtree under `parentId` (null: to the roots). */
export function checkMove(tree: CollectionTree, id: string, parentId: string | null): void {
  if (parentId === null) return;
  const subtree = tree.subtree(id, (c) => c.deleted_at === null);
  checkActiveParent(tree, parentId);
  if (subtree.some((s) => s.id === parentId)) throw invalid('body', 'parentId', 'a collection cannot move under itself or one of its descendants');
  checkDepth(tree.depth(parentId) + 1 + Math.max(...subtree.map((s) => s.level)));
}

/** The active subtree a trash takes: the collection and its active descendants. */
export const trashedSubtree = (tree: CollectionTree, id: string): string[] =>
  tree.subtree(id, (c) => c.deleted_at === null).map((s) => s.id);

/** What a restore brings back, and where the restored collection lands. */
export interface RestorePlan {
  /** The cascade the collection was trashed by (its own, or an ancestor's). */
  root: string;
  ids: string[];
  /** Its old parent when active and shallow enough to hold the subtree; else null (a root). */
  parentId: string | null;
}

/**
 * A collection trashed by its ancestor's cascade brings back its own part of that cascade.
 * `row` is the trashed collection itself.
 */
export function restorePlan(tree: CollectionTree, row: TreeRow): RestorePlan {
  const root = row.trash_root ?? row.id;
  const subtree = tree.subtree(row.id, (c) => c.deleted_at !== null && c.trash_root === root);
  const height = Math.max(...subtree.map((s) => s.level));
  const parent = row.parent_id === null ? undefined : tree.get(row.parent_id);
  const parentId =
    parent && parent.deleted_at === null && tree.depth(parent.id) + 1 + height <= MAX_COLLECTION_DEPTH ? parent.id : null;
  return { root, ids: subtree.map((s) => s.id), parentId };
}

/**
 * The siblings' ids in their new order (to number 0..n-1): their current order, with
 * `place.id` put at `place.index` (the end when null or too large).
 */
export function arrangedSiblings(current: readonly string[], place?: { id: string; index: number | null }): string[] {
  const ids = current.filter((s) => s !== place?.id);
  if (place) ids.splice(place.index ?? ids.length, 0, place.id);
  return ids;
}
