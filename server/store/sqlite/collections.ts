import { dirname } from 'node:path';
import type { Collection, CreateCollectionBody } from '../../../lib/api/collections.ts';
import type { PatchCollectionBody } from '../../../lib/api/collection-edits.ts';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/api-error.ts';
import type { SerializedJson } from '../../http/serialized-json.ts';
import { newId } from '../../ids.ts';
import type {
  CollectionBookmarksPage,
  CollectionTrashResult,
  CollectionsStore,
  ShareState,
  SharedCollection,
} from '../collections.ts';
import {
  COLLECTION_SELECT,
  collectionWithDepthSql,
  type CollectionRow,
  byTreeOrder,
  encodeList,
  newSlug,
  pageOf,
  pageStart,
  serializedList,
  shareState,
  toCollection,
} from '../shared/collection-rows.ts';
import {
  alreadyTrashed,
  arrangedSiblings,
  checkMove,
  checkNewChild,
  checkRowLimit,
  notTrashed,
  restorePlan,
  trashedNotWritable,
  trashedSubtree,
} from '../shared/collection-rules.ts';
import { type TreeRow, CollectionTree } from '../shared/collection-tree.ts';
import { type BookmarkRow, toBookmark } from '../shared/bookmark-rows.ts';
import { BOOKMARK_COLUMNS } from './bookmark-rows.ts';
import { StoreThread } from './store-thread.ts';

/** A list of ids bound as one JSON parameter: `IN (SELECT value FROM json_each(?))`. */
const IN_IDS = 'IN (SELECT value FROM json_each(?))';

/**
 * From this many active collections a user's list is built on the list thread: 10,000 (the cap)
 * held the event loop for 150-250 ms, every other user's request with it; a thousand take some
 * 15 ms, less than the trip to the thread and back is worth for the lists most users have.
 */
export const LIST_ON_THREAD_FROM = 1_000;

export interface ListJob {
  userId: string;
}

export class SqliteCollections implements CollectionsStore {
  private q;
  /** Large lists, read on a connection of its own (collection-list-worker.ts), in one read transaction. */
  private listThread: StoreThread<ListJob, Uint8Array<ArrayBuffer>>;

  constructor(private db: Db) {
    this.listThread = new StoreThread('collection-list-worker', dirname(db.name), 'collection list');
    this.q = {
      row: db.prepare<[string, string], CollectionRow>(`${COLLECTION_SELECT} WHERE c.user_id = ? AND c.id = ?`),
      withDepth: db.prepare<[{ user: string; id: string }], CollectionRow & { depth: number }>(collectionWithDepthSql('@user', '@id')),
      active: db.prepare<[string], CollectionRow>(`${COLLECTION_SELECT} WHERE c.user_id = ? AND c.deleted_at IS NULL ORDER BY c.seq`),
      activeCount: db.prepare<[string], number>('SELECT COUNT(*) FROM collections WHERE user_id = ? AND deleted_at IS NULL'),
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
    this.q.activeCount.pluck();
    this.q.bookmarksIn.pluck();
  }

  async list(userId: string): Promise<Collection[]> {
    return this.activeList(userId);
  }

  async listSerialized(userId: string): Promise<SerializedJson<Collection[]>> {
    if (this.q.activeCount.get(userId)! < LIST_ON_THREAD_FROM) return serializedList(encodeList(this.activeList(userId)));
    return serializedList(await this.listThread.run({ userId }));
  }

  /** The list thread's work: the tree and the list are read in one transaction, so a write between them cannot mix them. */
  activeList(userId: string): Collection[] {
    return this.db.transaction(() => {
      const tree = this.tree(userId);
      return this.q.active
        .all(userId)
        .map((r) => toCollection(r, tree.depth(r.id)))
        .sort(byTreeOrder);
    })();
  }

  /** Stops the list thread; the connection is the caller's to close. */
  close(): Promise<void> {
    return this.listThread.close();
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
      checkNewChild(this.tree(userId), parentId);
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
      if (moving) checkMove(this.tree(userId), id, patch.parentId ?? null);
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
      if (row.deleted_at !== null) throw alreadyTrashed(id);
      const ids = trashedSubtree(this.tree(userId), id);
      const json = JSON.stringify(ids);
      checkRowLimit('delete', ids.length + this.q.bookmarksIn.get(userId, json)!);

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
      if (row.deleted_at === null) throw notTrashed(id);
      const { root, ids, parentId } = restorePlan(this.tree(userId), row);
      const json = JSON.stringify(ids);
      checkRowLimit('restore', ids.length + this.q.bookmarksIn.get(userId, json)!);

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
      return { id, collections: ids.length, bookmarks };
    })();
  }

  async bookmarks(userId: string, id: string, page: { limit: number; cursor?: string | undefined }): Promise<CollectionBookmarksPage> {
    this.row(userId, id);
    const [createdAt, seq] = pageStart(page.cursor);
    const rows = this.db
      .prepare<[string, number, number, number], BookmarkRow>(
        `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b
         WHERE b.collection_id = ? AND b.deleted_at IS NULL AND (b.created_at, b.seq) < (?, ?)
         ORDER BY b.created_at DESC, b.seq DESC LIMIT ?`,
      )
      .all(id, createdAt, seq, page.limit + 1);
    const { shown, continueCursor } = pageOf(rows, page.limit);
    return { bookmarks: shown.map(toBookmark), continueCursor };
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
    const row = this.q.withDepth.get({ user: userId, id });
    if (!row) throw notFound('collection', id);
    return toCollection(row, row.depth);
  }

  private row(userId: string, id: string): CollectionRow {
    const row = this.q.row.get(userId, id);
    if (!row) throw notFound('collection', id);
    return row;
  }

  private activeRow(userId: string, id: string): CollectionRow {
    const row = this.row(userId, id);
    if (row.deleted_at !== null) throw trashedNotWritable(id);
    return row;
  }

  private tree(userId: string): CollectionTree {
    return new CollectionTree(this.q.tree.all(userId));
  }

  /**
   * Renumbers the active children of a parent 0..n-1 in their current order,
   * first putting `place.id` at `place.index` (the end when null or too large).
   */
  private arrangeSiblings(userId: string, parentId: string | null, place?: { id: string; index: number | null }): void {
    const ids = arrangedSiblings(
      this.q.siblings.all(userId, parentId).map((s) => s.id),
      place,
    );
    ids.forEach((sibling, order) => this.q.setOrder.run(order, sibling, order));
  }
}
