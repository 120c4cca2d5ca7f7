import type { PatchCollectionBody } from '../../../lib/api/collection-edits.ts';
import type { Collection, CreateCollectionBody } from '../../../lib/api/collections.ts';
import type { Pg, Row, Sql } from '../../db/postgres/pg.ts';
import { notFound } from '../../http/api-error.ts';
import type { SerializedJson } from '../../http/serialized-json.ts';
import { newId } from '../../ids.ts';
import type { CollectionBookmarksPage, CollectionTrashResult, CollectionsStore, ShareState, SharedCollection } from '../collections.ts';
import * as mapping from '../shared/collection-rows.ts';
import type { CollectionRow } from '../shared/collection-rows.ts';
import * as rules from '../shared/collection-rules.ts';
import { type TreeRow, CollectionTree } from '../shared/collection-tree.ts';
import { type BookmarkRow, toBookmark } from '../shared/bookmark-rows.ts';
import { BOOKMARK_COLUMNS } from './bookmark-rows.ts';
import { collectionListJson } from './collection-list-json.ts';
import { LastCollectionLists } from './last-collection-lists.ts';

const userLock = (userId: string) => ({ lock: `user:${userId}` });

export class PgCollections implements CollectionsStore {
  private lastLists = new LastCollectionLists();

  constructor(private db: Pg) {}

  async list(userId: string): Promise<Collection[]> {
    const { rows, tree } = await this.library(userId);
    return rows
      .filter((r) => r.deleted_at === null)
      .map((r) => mapping.toCollection(r, tree.depth(r.id)))
      .sort(mapping.byTreeOrder);
  }

  async listSerialized(userId: string): Promise<SerializedJson<Collection[]>> {
    await this.lastLists.settled(userId);
    const now = await this.db.get<{ snapshot: string }>('SELECT pg_current_snapshot()::text AS snapshot');
    const last = this.lastLists.at(userId, now!.snapshot);
    if (last !== undefined) return mapping.serializedList(...last);
    const built = await collectionListJson(this.db, userId);
    if (built === null) return mapping.serializedList(mapping.encodeList(await this.list(userId)));
    this.lastLists.keep(userId, built.snapshot, built.json);
    return mapping.serializedList(built.json);
  }

  async listTrashed(userId: string): Promise<Collection[]> {
    const { rows, tree } = await this.library(userId);
    return rows
      .filter((r) => r.deleted_at !== null)
      .sort((a, b) => b.deleted_at! - a.deleted_at! || b.seq - a.seq)
      .map((r) => mapping.toCollection(r, tree.depth(r.id)));
  }

  get(userId: string, id: string): Promise<Collection> {
    return this.read(userId, id);
  }

  async create(userId: string, input: CreateCollectionBody, now: number): Promise<Collection> {
    const id = newId('col');
    await this.db.transaction(async (tx) => {
      const parentId = input.parentId ?? null;
      rules.checkNewChild(await this.tree(tx, userId), parentId);
      await tx.run(
        `INSERT INTO collections (id, user_id, name, icon, color, parent_id, sort_order, share_slug, created_at, updated_at)
         SELECT $1, $2, $3, $4, $5, $6, COALESCE(MAX(sort_order) + 1, 0), $7, $8, $8 FROM collections
         WHERE user_id = $2 AND parent_id IS NOT DISTINCT FROM $6 AND deleted_at IS NULL`,
        [id, userId, input.name, input.icon ?? '', input.color ?? '', parentId, mapping.newSlug(), now],
      );
    }, userLock(userId));
    return this.read(userId, id);
  }

  update(userId: string, id: string, patch: PatchCollectionBody, now: number): Promise<Collection> {
    return this.lastLists.edit(userId, () => this.updated(userId, id, patch, now));
  }

  private async updated(userId: string, id: string, patch: PatchCollectionBody, now: number): Promise<Collection> {
    const { xid, inPlace } = await this.db.transaction(async (tx) => {
      const row = await this.activeRow(tx, userId, id);
      const moving = patch.parentId !== undefined && patch.parentId !== row.parent_id;
      const parentId = moving ? (patch.parentId ?? null) : row.parent_id;
      if (moving) rules.checkMove(await this.tree(tx, userId), id, parentId);
      const updated = await tx.get<{ xid: string }>(
        `UPDATE collections SET name = COALESCE($1, name), icon = COALESCE($2, icon), color = COALESCE($3, color),
           notes = COALESCE($4, notes), parent_id = $5, updated_at = $6 WHERE id = $7 RETURNING pg_current_xact_id()::text AS xid`,
        [patch.name ?? null, patch.icon ?? null, patch.color ?? null, patch.notes ?? null, parentId, now, id],
      );
      if (moving) {
        await this.arrangeSiblings(tx, userId, row.parent_id);
        await this.arrangeSiblings(tx, userId, parentId, { id, index: patch.order ?? null });
      } else if (patch.order !== undefined) {
        await this.arrangeSiblings(tx, userId, row.parent_id, { id, index: patch.order });
      }
      return { xid: updated!.xid, inPlace: !moving && patch.order === undefined };
    }, userLock(userId));
    const { collection, snapshot } = await this.readAt(userId, id);
    // Only an edit that leaves the collection in its place can be patched into the last list.
    if (inPlace) this.lastLists.edited(userId, xid, snapshot, collection);
    return collection;
  }

  trash(userId: string, id: string, now: number): Promise<CollectionTrashResult> {
    return this.db.transaction(async (tx) => {
      const row = await this.row(tx, userId, id);
      if (row.deleted_at !== null) throw rules.alreadyTrashed(id);
      const ids = rules.trashedSubtree(await this.tree(tx, userId), id);
      rules.checkRowLimit('delete', ids.length + (await this.bookmarksIn(tx, userId, ids)));

      await tx.run('UPDATE collections SET deleted_at = $1, trash_root = $2, updated_at = $1 WHERE id = ANY($3)', [now, id, ids]);
      const bookmarks = await tx.run(
        `UPDATE bookmarks SET deleted_at = $1, trash_root = $2, updated_at = $1
         WHERE user_id = $3 AND deleted_at IS NULL AND collection_id = ANY($4)`,
        [now, id, userId, ids],
      );
      await this.arrangeSiblings(tx, userId, row.parent_id);
      return { id, collections: ids.length, bookmarks };
    }, userLock(userId));
  }

  restore(userId: string, id: string, now: number): Promise<CollectionTrashResult> {
    return this.db.transaction(async (tx) => {
      const row = await this.row(tx, userId, id);
      if (row.deleted_at === null) throw rules.notTrashed(id);
      const { root, ids, parentId } = rules.restorePlan(await this.tree(tx, userId), row);
      rules.checkRowLimit('restore', ids.length + (await this.bookmarksIn(tx, userId, ids)));

      await tx.run('UPDATE collections SET deleted_at = NULL, trash_root = NULL, updated_at = $1 WHERE id = ANY($2)', [now, ids]);
      await tx.run('UPDATE collections SET parent_id = $1 WHERE id = $2', [parentId, id]);
      await this.arrangeSiblings(tx, userId, parentId, { id, index: null });
      const bookmarks = await tx.run(
        `UPDATE bookmarks SET deleted_at = NULL, trash_root = NULL, updated_at = $1
         WHERE user_id = $2 AND deleted_at IS NOT NULL AND trash_root = $3 AND collection_id = ANY($4)`,
        [now, userId, root, ids],
      );
      return { id, collections: ids.length, bookmarks };
    }, userLock(userId));
  }

  async bookmarks(userId: string, id: string, page: { limit: number; cursor?: string | undefined }): Promise<CollectionBookmarksPage> {
    await this.row(this.db, userId, id);
    const [createdAt, seq] = mapping.pageStart(page.cursor);
    const rows = await this.db.all<BookmarkRow & Row>(
      `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b
       WHERE b.collection_id = $1 AND b.deleted_at IS NULL AND (b.created_at, b.seq) < ($2, $3)
       ORDER BY b.created_at DESC, b.seq DESC LIMIT $4`,
      [id, createdAt, seq, page.limit + 1],
    );
    const { shown, continueCursor } = mapping.pageOf(rows, page.limit);
    return { bookmarks: shown.map(toBookmark), continueCursor };
  }

  async share(userId: string, id: string): Promise<ShareState> {
    return mapping.shareState(await this.row(this.db, userId, id));
  }

  setShared(userId: string, id: string, shared: boolean, now: number): Promise<ShareState> {
    return this.db.transaction(async (tx) => {
      await this.activeRow(tx, userId, id);
      await tx.run('UPDATE collections SET is_shared = $1, updated_at = $2 WHERE id = $3', [shared ? 1 : 0, now, id]);
      return mapping.shareState(await this.row(tx, userId, id));
    }, userLock(userId));
  }

  async shared(slug: string, limit: number): Promise<SharedCollection | null> {
    const row = await this.db.get<CollectionRow>(
      `${mapping.COLLECTION_SELECT} WHERE c.share_slug = $1 AND c.is_shared = 1 AND c.deleted_at IS NULL`,
      [slug],
    );
    if (!row) return null;
    const [tree, rows] = await Promise.all([
      this.tree(this.db, row.user_id),
      this.db.all<BookmarkRow & Row>(
        `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.collection_id = $1 AND b.deleted_at IS NULL
         ORDER BY b.created_at DESC, b.seq DESC LIMIT $2`,
        [row.id, limit + 1],
      ),
    ]);
    return {
      collection: mapping.toCollection(row, tree.depth(row.id)),
      bookmarks: rows.slice(0, limit).map(toBookmark),
      more: rows.length > limit,
    };
  }

  /**
   * User by user, each under that user's lock, so that a restore cannot bring back a
   * collection between reading it here and deleting it.
   */
  async purgeTrashedBefore(cutoff: number): Promise<{ collections: number; bookmarks: number }> {
    const users = await this.db.all<{ user_id: string }>(
      'SELECT DISTINCT user_id FROM collections WHERE deleted_at IS NOT NULL AND deleted_at < $1',
      [cutoff],
    );
    const purged = { collections: 0, bookmarks: 0 };
    for (const { user_id: userId } of users) {
      await this.db.transaction(async (tx) => {
        const ids = (
          await tx.all<{ id: string }>('SELECT id FROM collections WHERE user_id = $1 AND deleted_at IS NOT NULL AND deleted_at < $2', [
            userId,
            cutoff,
          ])
        ).map((r) => r.id);
        purged.bookmarks += await tx.run('DELETE FROM bookmarks WHERE deleted_at IS NOT NULL AND collection_id = ANY($1)', [ids]);
        purged.collections += await tx.run('DELETE FROM collections WHERE id = ANY($1)', [ids]);
      }, userLock(userId));
    }
    return purged;
  }

  private async read(userId: string, id: string): Promise<Collection> {
    return (await this.readAt(userId, id)).collection;
  }

  /** The collection and the snapshot it was read at, in one statement. */
  private async readAt(userId: string, id: string): Promise<{ collection: Collection; snapshot: string }> {
    const row = await this.db.get<CollectionRow & { depth: number; snapshot: string }>(
      `SELECT r.*, pg_current_snapshot()::text AS snapshot FROM (${mapping.collectionWithDepthSql('$1', '$2')}) r`,
      [userId, id],
    );
    if (!row) throw notFound('collection', id);
    return { collection: mapping.toCollection(row, row.depth), snapshot: row.snapshot };
  }

  /** All the user's collections, active and trashed, in the order made, and their tree: one statement, one snapshot. */
  private async library(userId: string): Promise<{ rows: CollectionRow[]; tree: CollectionTree }> {
    const rows = await this.db.all<CollectionRow>(`${mapping.COLLECTION_SELECT} WHERE c.user_id = $1 ORDER BY c.seq`, [userId]);
    return { rows, tree: new CollectionTree(rows) };
  }

  private async row(sql: Sql, userId: string, id: string): Promise<CollectionRow> {
    const row = await sql.get<CollectionRow>(`${mapping.COLLECTION_SELECT} WHERE c.user_id = $1 AND c.id = $2`, [userId, id]);
    if (!row) throw notFound('collection', id);
    return row;
  }

  private async activeRow(sql: Sql, userId: string, id: string): Promise<CollectionRow> {
    const row = await this.row(sql, userId, id);
    if (row.deleted_at !== null) throw rules.trashedNotWritable(id);
    return row;
  }

  private async tree(sql: Sql, userId: string): Promise<CollectionTree> {
    return new CollectionTree(await sql.all<TreeRow>(
      'SELECT id, parent_id, deleted_at, trash_root FROM collections WHERE user_id = $1',
      [userId],
    ));
  }

  /** Bookmarks in these collections, trashed ones included: what the 1,000-row rule counts. */
  private async bookmarksIn(sql: Sql, userId: string, ids: readonly string[]): Promise<number> {
    const row = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM bookmarks WHERE user_id = $1 AND collection_id = ANY($2)', [userId, ids]);
    return row!.n;
  }

  /**
   * Renumbers the active children of a parent 0..n-1 in their current order,
   * first putting `place.id` at `place.index` (the end when null or too large).
   */
  private async arrangeSiblings(sql: Sql, userId: string, parentId: string | null, place?: { id: string; index: number | null }): Promise<void> {
    const current = await sql.all<{ id: string }>(
      `SELECT id FROM collections WHERE user_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
       ORDER BY sort_order, created_at, seq`,
      [userId, parentId],
    );
    const ids = rules.arrangedSiblings(current.map((s) => s.id), place);
    await sql.run(
      `UPDATE collections c SET sort_order = o.n - 1 FROM unnest($1::text[]) WITH ORDINALITY AS o(id, n)
       WHERE c.id = o.id AND c.sort_order <> o.n - 1`,
      [ids],
    );
  }
}
