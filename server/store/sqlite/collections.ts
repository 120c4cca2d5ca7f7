import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  COLLECTION_ROW_LIMIT,
  type Collection,
  type CreateCollectionBody,
  MAX_COLLECTION_DEPTH,
} from '../../../lib/api/collections.ts';
import type { PatchCollectionBody } from '../../../lib/api/collection-edits.ts';
import { iso } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { ApiError, conflict, invalid, notFound } from '../../http/api-error.ts';
import { newId } from '../../ids.ts';
import type {
  CollectionBookmarksPage,
  CollectionTrashResult,
  CollectionsStore,
  ShareState,
  SharedCollection,
} from '../collections.ts';
import { type BookmarkRow, toBookmark } from '../shared/bookmark-rows.ts';
import { BOOKMARK_COLUMNS } from './bookmark-rows.ts';
import { type TreeRow, CollectionTree } from './collection-tree.ts';

interface CollectionRow extends TreeRow {
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
}

/** bookmark_count: active bookmarks directly in the collection, kept by triggers (migration 011-counts). */
const COLLECTION_SELECT = `SELECT c.seq, c.id, c.user_id, c.name, c.icon, c.color, c.parent_id, c.sort_order, c.notes, c.share_slug,
  c.is_shared, c.created_at, c.deleted_at, c.trash_root,
  c.active_count AS bookmark_count
  FROM collections c`;

/** A list of ids bound as one JSON parameter: `IN (SELECT value FROM json_each(?))`. */
const IN_IDS = 'IN (SELECT value FROM json_each(?))';

const toCollection = (r: CollectionRow, depth: number): Collection => ({
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

const shareState = (r: { share_slug: string; is_shared: number }): ShareState => ({
  shared: r.is_shared === 1,
  publicUrl: `/shared/${r.share_slug}`,
});

/** 16 url-safe characters, 96 random bits: not guessable, so an unshared slug reveals nothing. */
const newSlug = (): string => randomBytes(12).toString('base64url');

/** The opaque page cursor: the (created_at, seq) of the last bookmark shown. */
const CursorKey = z.tuple([z.number().int(), z.number().int()]);
const encodeCursor = (r: { created_at: number; seq: number }): string =>
  Buffer.from(JSON.stringify([r.created_at, r.seq])).toString('base64url');

function decodeCursor(cursor: string): z.infer<typeof CursorKey> {
  try {
    return CursorKey.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw invalid('query', 'cursor', 'is not a cursor from a previous page; start again without it');
  }
}

const tooLarge = (verb: 'delete' | 'restore', rows: number): ApiError =>
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

export class SqliteCollections implements CollectionsStore {
  private q;

  constructor(private db: Db) {
    this.q = {
      row: db.prepare<[string, string], CollectionRow>(`${COLLECTION_SELECT} WHERE c.user_id = ? AND c.id = ?`),
      active: db.prepare<[string], CollectionRow>(`${COLLECTION_SELECT} WHERE c.user_id = ? AND c.deleted_at IS NULL ORDER BY c.seq`),
      trashed: db.prepare<[string], CollectionRow>(
        `${COLLECTION_SELECT} WHERE c.user_id = ? AND c.deleted_at IS NOT NULL ORDER BY c.deleted_at DESC, c.seq DESC`,
      ),
      tree: db.prepare<[string], TreeRow>(
        'SELECT id, parent_id, deleted_at, trash_root FROM collections WHERE user_id = ?',
      ),
      siblings: db.prepare<[string, string | null], { id: string }>(
        `SELECT id FROM collections WHERE user_id = ? AND parent_id IS ? AND deleted_at IS NULL
         ORDER BY sort_order, created_at, seq`,
      ),
      setOrder: db.prepare('UPDATE collections SET sort_order = ? WHERE id = ? AND sort_order != ?'),
      nextOrder: db.prepare<[string, string | null], number>(
        'SELECT COALESCE(MAX(sort_order) + 1, 0) FROM collections WHERE user_id = ? AND parent_id IS ? AND deleted_at IS NULL',
      ),
      bookmarksIn: db.prepare<[string, string], number>(`SELECT COUNT(*) FROM bookmarks WHERE user_id = ? AND collection_id ${IN_IDS}`),
      bySlug: db.prepare<[string], CollectionRow>(
        `${COLLECTION_SELECT} WHERE c.share_slug = ? AND c.is_shared = 1 AND c.deleted_at IS NULL`,
      ),
    };
    this.q.nextOrder.pluck();
    this.q.bookmarksIn.pluck();
  }

  async list(userId: string): Promise<Collection[]> {
    const tree = this.tree(userId);
    return this.q.active
      .all(userId)
      .map((r) => toCollection(r, tree.depth(r.id)))
      .sort(
        (a, b) =>
          a.depth - b.depth ||
          (a.parentId ?? '').localeCompare(b.parentId ?? '') ||
          a.order - b.order ||
          a.createdAt.localeCompare(b.createdAt),
      );
  }

  async listTrashed(userId: string): Promise<Collection[]> {
    const tree = this.tree(userId);
    return this.q.trashed.all(userId).map((r) => toCollection(r, tree.depth(r.id)));
  }

  async get(userId: string, id: string): Promise<Collection> {
    return this.read(userId, id);
  }

  async create(userId: string, input: CreateCollectionBody, now: number): Promise<Collection> {
    const id = newId('col');
    this.db.transaction(() => {
      const parentId = input.parentId ?? null;
      if (parentId !== null) {
        const tree = this.tree(userId);
        this.activeParent(tree, parentId);
        this.checkDepth(tree.depth(parentId) + 1);
      }
      this.db
        .prepare(
          `INSERT INTO collections (id, user_id, name, icon, color, parent_id, sort_order, share_slug, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(id, userId, input.name, input.icon ?? '', input.color ?? '', parentId, this.q.nextOrder.get(userId, parentId)!, newSlug(), now, now);
    })();
    return this.read(userId, id);
  }

  async update(userId: string, id: string, patch: PatchCollectionBody, now: number): Promise<Collection> {
    this.db.transaction(() => {
      const row = this.activeRow(userId, id);
      const moving = patch.parentId !== undefined && patch.parentId !== row.parent_id;
      if (moving) this.checkMove(userId, id, patch.parentId ?? null);
      this.db
        .prepare(
          `UPDATE collections SET name = COALESCE(?, name), icon = COALESCE(?, icon), color = COALESCE(?, color),
             notes = COALESCE(?, notes), parent_id = ?, updated_at = ? WHERE id = ?`,
        )
        .run(patch.name ?? null, patch.icon ?? null, patch.color ?? null, patch.notes ?? null, moving ? patch.parentId ?? null : row.parent_id, now, id);
      if (moving) {
        this.arrangeSiblings(userId, row.parent_id);
        this.arrangeSiblings(userId, patch.parentId ?? null, { id, index: patch.order ?? null });
      } else if (patch.order !== undefined) {
        this.arrangeSiblings(userId, row.parent_id, { id, index: patch.order });
      }
    })();
    return this.read(userId, id);
  }

  async trash(userId: string, id: string, now: number): Promise<CollectionTrashResult> {
    return this.db.transaction((): CollectionTrashResult => {
      const row = this.row(userId, id);
      if (row.deleted_at !== null) throw conflict(`collection ${id} is already in the trash`);
      const ids = this.tree(userId)
        .subtree(id, (c) => c.deleted_at === null)
        .map((s) => s.id);
      const json = JSON.stringify(ids);
      const rows = ids.length + this.q.bookmarksIn.get(userId, json)!;
      if (rows > COLLECTION_ROW_LIMIT) throw tooLarge('delete', rows);

      this.db.prepare(`UPDATE collections SET deleted_at = ?, trash_root = ?, updated_at = ? WHERE id ${IN_IDS}`).run(now, id, now, json);
      const bookmarks = this.db
        .prepare(
          `UPDATE bookmarks SET deleted_at = ?, trash_root = ?, updated_at = ?
           WHERE user_id = ? AND deleted_at IS NULL AND collection_id ${IN_IDS}`,
        )
        .run(now, id, now, userId, json).changes;
      this.arrangeSiblings(userId, row.parent_id);
      return { id, collections: ids.length, bookmarks };
    })();
  }

  async restore(userId: string, id: string, now: number): Promise<CollectionTrashResult> {
    return this.db.transaction((): CollectionTrashResult => {
      const row = this.row(userId, id);
      if (row.deleted_at === null) throw conflict(`collection ${id} is not in the trash`);
      // A collection trashed by its ancestor's cascade brings back its own part of that cascade.
      const root = row.trash_root ?? id;
      const tree = this.tree(userId);
      const subtree = tree.subtree(id, (c) => c.deleted_at !== null && c.trash_root === root);
      const json = JSON.stringify(subtree.map((s) => s.id));
      const rows = subtree.length + this.q.bookmarksIn.get(userId, json)!;
      if (rows > COLLECTION_ROW_LIMIT) throw tooLarge('restore', rows);

      const height = Math.max(...subtree.map((s) => s.level));
      const parent = row.parent_id === null ? undefined : tree.get(row.parent_id);
      const parentId =
        parent && parent.deleted_at === null && tree.depth(parent.id) + 1 + height <= MAX_COLLECTION_DEPTH ? parent.id : null;
      this.db
        .prepare(`UPDATE collections SET deleted_at = NULL, trash_root = NULL, updated_at = ? WHERE id ${IN_IDS}`)
        .run(now, json);
      this.db.prepare('UPDATE collections SET parent_id = ? WHERE id = ?').run(parentId, id);
      this.arrangeSiblings(userId, parentId, { id, index: null });
      const bookmarks = this.db
        .prepare(
          `UPDATE bookmarks SET deleted_at = NULL, trash_root = NULL, updated_at = ?
           WHERE user_id = ? AND deleted_at IS NOT NULL AND trash_root = ? AND collection_id ${IN_IDS}`,
        )
        .run(now, userId, root, json).changes;
      return { id, collections: subtree.length, bookmarks };
    })();
  }

  async bookmarks(userId: string, id: string, page: { limit: number; cursor?: string | undefined }): Promise<CollectionBookmarksPage> {
    this.row(userId, id);
    const [createdAt, seq] = page.cursor === undefined ? [Number.MAX_SAFE_INTEGER, 0] : decodeCursor(page.cursor);
    const rows = this.db
      .prepare<[string, number, number, number], BookmarkRow>(
        `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b
         WHERE b.collection_id = ? AND b.deleted_at IS NULL AND (b.created_at, b.seq) < (?, ?)
         ORDER BY b.created_at DESC, b.seq DESC LIMIT ?`,
      )
      .all(id, createdAt, seq, page.limit + 1);
    const shown = rows.slice(0, page.limit);
    const last = shown.at(-1);
    return {
      bookmarks: shown.map(toBookmark),
      continueCursor: rows.length > page.limit && last ? encodeCursor(last) : null,
    };
  }

  async share(userId: string, id: string): Promise<ShareState> {
    return shareState(this.row(userId, id));
  }

  async setShared(userId: string, id: string, shared: boolean, now: number): Promise<ShareState> {
    return this.db.transaction((): ShareState => {
      this.activeRow(userId, id);
      this.db.prepare('UPDATE collections SET is_shared = ?, updated_at = ? WHERE id = ?').run(shared ? 1 : 0, now, id);
      return shareState(this.row(userId, id));
    })();
  }

  async shared(slug: string, limit: number): Promise<SharedCollection | null> {
    const row = this.q.bySlug.get(slug);
    if (!row) return null;
    const rows = this.db
      .prepare<[string, number], BookmarkRow>(
        `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.collection_id = ? AND b.deleted_at IS NULL
         ORDER BY b.created_at DESC, b.seq DESC LIMIT ?`,
      )
      .all(row.id, limit + 1);
    return {
      collection: toCollection(row, this.tree(row.user_id).depth(row.id)),
      bookmarks: rows.slice(0, limit).map(toBookmark),
      more: rows.length > limit,
    };
  }

  async purgeTrashedBefore(cutoff: number): Promise<{ collections: number; bookmarks: number }> {
    return this.db.transaction(() => {
      const ids = this.db
        .prepare<[number], string>('SELECT id FROM collections WHERE deleted_at IS NOT NULL AND deleted_at < ?')
        .pluck()
        .all(cutoff);
      if (ids.length === 0) return { collections: 0, bookmarks: 0 };
      const json = JSON.stringify(ids);
      const bookmarks = this.db.prepare(`DELETE FROM bookmarks WHERE deleted_at IS NOT NULL AND collection_id ${IN_IDS}`).run(json).changes;
      const collections = this.db.prepare(`DELETE FROM collections WHERE id ${IN_IDS}`).run(json).changes;
      return { collections, bookmarks };
    })();
  }

  private read(userId: string, id: string): Collection {
    return toCollection(this.row(userId, id), this.tree(userId).depth(id));
  }

  private row(userId: string, id: string): CollectionRow {
    const row = this.q.row.get(userId, id);
    if (!row) throw notFound('collection', id);
    return row;
  }

  private activeRow(userId: string, id: string): CollectionRow {
    const row = this.row(userId, id);
    if (row.deleted_at !== null) throw conflict(`collection ${id} is in the trash; restore it first`);
    return row;
  }

  private tree(userId: string): CollectionTree {
    return new CollectionTree(this.q.tree.all(userId));
  }

  /** A parent must be one of the user's active collections; anything else is as unknown as a missing id. */
  private activeParent(tree: CollectionTree, parentId: string): void {
    if (tree.get(parentId)?.deleted_at !== null) throw notFound('parent collection', parentId);
  }

  private checkDepth(depth: number): void {
    if (depth > MAX_COLLECTION_DEPTH) {
      throw invalid('body', 'parentId', `collections nest at most ${MAX_COLLECTION_DEPTH + 1} levels deep (depth 0 to ${MAX_COLLECTION_DEPTH})`);
    }
  }

  private checkMove(userId: string, id: string, parentId: string | null): void {
    const tree = this.tree(userId);
    const subtree = tree.subtree(id, (c) => c.deleted_at === null);
    if (parentId === null) return;
    this.activeParent(tree, parentId);
    if (subtree.some((s) => s.id === parentId)) throw invalid('body', 'parentId', 'a collection cannot move under itself or one of its descendants');
    this.checkDepth(tree.depth(parentId) + 1 + Math.max(...subtree.map((s) => s.level)));
  }

  /**
   * Renumbers the active children of a parent 0..n-1 in their current order,
   * first putting `place.id` at `place.index` (the end when null or too large).
   */
  private arrangeSiblings(userId: string, parentId: string | null, place?: { id: string; index: number | null }): void {
    const ids = this.q.siblings
      .all(userId, parentId)
      .map((s) => s.id)
      .filter((s) => s !== place?.id);
    if (place) ids.splice(place.index ?? ids.length, 0, place.id);
    ids.forEach((sibling, order) => this.q.setOrder.run(order, sibling, order));
  }
}
