import type Database from 'better-sqlite3';
import {
  type Bookmark,
  type BookmarkPage,
  type CreateBookmarkBody,
  type ListBookmarksQuery,
  MAX_TAGS_PER_BOOKMARK,
  type PatchBookmarkBody,
} from '../../../lib/api/bookmarks.ts';
import type { Tag } from '../../../lib/api/tags.ts';
import { domainOf, normaliseUrl } from '../../../lib/url.ts';
import { type CursorOrder, decodeCursor } from '../../bookmarks/cursor.ts';
import { normaliseDomainFilter } from '../../bookmarks/domain.ts';
import { titleOr } from '../../bookmarks/title.ts';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/api-error.ts';
import { newId } from '../../ids.ts';
import type {
  BookmarkStats,
  BookmarksStore,
  BulkChange,
  DetectedFields,
  DomainCount,
  DuplicatesResult,
  SavedBookmark,
  TrashQuery,
} from '../bookmarks.ts';
import { favoritesWindowOrder, toFavoritesWindow, toPage } from '../shared/bookmark-pages.ts';
import {
  MAX_DUPLICATE_GROUPS,
  notOnBookmark,
  PLAIN_COLUMNS,
  refuseFull,
  refuseIfTrashed,
  refuseTrashed,
  requireFound,
  STATS_COLUMNS,
  type StatsRow,
  toDuplicates,
  toStats,
  urlTaken,
} from '../shared/bookmark-results.ts';
import { type BookmarkRow, type DuplicateRow, toBookmark } from '../shared/bookmark-rows.ts';
import { TAG_COLUMNS, type TagRow, toTag } from '../shared/tag-objects.ts';
import { BOOKMARK_COLUMNS, DUPLICATE_COLUMNS } from './bookmark-rows.ts';
import { ORDERS } from './bookmark-orders.ts';
import { SqliteBookmarkSearch } from './bookmark-search.ts';
import { ensureTags, setBookmarkTags } from './tag-rows.ts';

type Params = Record<string, unknown>;

/** Bulk statements take their ids as one JSON array parameter. */
const IN_IDS = 'b.id IN (SELECT value FROM json_each(@ids))';

/**
 * The duplicate groups: ordered by their newest member, members oldest first. Only URLs saved twice or
 * more are read, from the counts the triggers keep (migration 011-duplicates); without that hint SQLite
 * walks every URL of the user by the primary key. The members' hint: without statistics (the server runs
 * no ANALYZE) SQLite found MAX(created_at) by walking the user's bookmarks newest first until one had the
 * URL, most of the library for each group of old bookmarks (5-15 s for 1,000 groups in 10,000 bookmarks,
 * against 0.1-0.5 s by URL).
 */
export const DUPLICATES_SQL = `WITH g AS (
     SELECT k.url_key,
       (SELECT MAX(m.created_at) FROM bookmarks m INDEXED BY bookmarks_url_key WHERE m.user_id = @userId AND m.url_key = k.url_key AND m.deleted_at IS NULL) AS newest,
       (SELECT MAX(m.seq) FROM bookmarks m INDEXED BY bookmarks_url_key WHERE m.user_id = @userId AND m.url_key = k.url_key AND m.deleted_at IS NULL) AS top
     FROM url_key_counts k INDEXED BY url_key_duplicates WHERE k.user_id = @userId AND k.count >= 2
     ORDER BY newest DESC, top DESC LIMIT @groups)
   SELECT ${DUPLICATE_COLUMNS}, b.url_key FROM g JOIN bookmarks b ON b.user_id = @userId AND b.url_key = g.url_key AND b.deleted_at IS NULL
   ORDER BY g.newest DESC, g.top DESC, b.created_at ASC, b.seq ASC`;

export class SqliteBookmarks implements BookmarksStore {
  /** Statements whose SQL depends on the request (list filters, PATCH fields), prepared once per shape. */
  private shapes = new Map<string, Database.Statement<[Params], BookmarkRow>>();
  private q;
  private searcher: SqliteBookmarkSearch;

  constructor(private db: Db) {
    this.searcher = new SqliteBookmarkSearch(db);
    // The most recently saved favorites (one more than the window, to tell whether it is truncated), in the list's order.
    const favoritesWindow = (order: 'title' | 'domain') =>
      db.prepare<[Params], BookmarkRow>(
        `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.seq IN (
           SELECT w.seq FROM bookmarks w WHERE w.user_id = @userId AND w.deleted_at IS NULL AND w.is_favorite = 1
           ORDER BY w.created_at DESC, w.seq DESC LIMIT @limit)
         ORDER BY ${ORDERS[order].by}`,
      );
    const one = (where: string, order: string) =>
      // Without the hint SQLite walks a date index (to skip the sort) instead of looking the URL up: 5 ms at 10,000 bookmarks.
      db.prepare<[string, string], { id: string }>(
        `SELECT b.id FROM bookmarks b INDEXED BY bookmarks_url WHERE b.user_id = ? AND b.url = ? AND ${where} ORDER BY ${order} LIMIT 1`,
      );
    this.q = {
      byId: db.prepare<[string, string], BookmarkRow>(`SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.id = ? AND b.user_id = ?`),
      activeByUrl: one('b.deleted_at IS NULL', 'b.created_at DESC, b.seq DESC'),
      trashedByUrl: one('b.deleted_at IS NOT NULL', 'b.deleted_at DESC, b.seq DESC'),
      otherActiveByUrl: db.prepare<[string, string, string], { id: string }>(
        'SELECT id FROM bookmarks WHERE user_id = ? AND url = ? AND deleted_at IS NULL AND id != ? LIMIT 1',
      ),
      activeCollection: db.prepare<[string, string], { id: string }>(
        'SELECT id FROM collections WHERE id = ? AND user_id = ? AND deleted_at IS NULL',
      ),
      insert: db.prepare<[Params]>(
        `INSERT INTO bookmarks (id, user_id, url, url_key, title, description, excerpt, note, type, is_favorite, collection_id,
           domain, favicon, metadata_status, link_status, last_checked_at, http_status_code, created_at, updated_at, link_checked_at)
         VALUES (@id, @userId, @url, @urlKey, @title, @description, @excerpt, @note, @type, @isFavorite, @collectionId,
           @domain, @favicon, @metadataStatus, @linkStatus, @now, @httpStatusCode, @now, @now,
           CASE WHEN @linkStatus = 'unchecked' THEN 0 ELSE @now END)`,
      ),
      trash: db.prepare<[Params]>(
        `UPDATE bookmarks AS b SET deleted_at = @now, updated_at = @now WHERE b.user_id = @userId AND b.deleted_at IS NULL AND ${IN_IDS}`,
      ),
      // A bookmark whose collection is no longer active comes back Unsorted, out of that collection's trash.
      restore: db.prepare<[Params]>(
        `UPDATE bookmarks AS b SET deleted_at = NULL, trash_root = NULL, updated_at = @now,
           collection_id = (SELECT c.id FROM collections c WHERE c.id = b.collection_id AND c.user_id = b.user_id AND c.deleted_at IS NULL)
         WHERE b.id = @id AND b.deleted_at IS NOT NULL`,
      ),
      favorite: db.prepare<[Params]>(
        `UPDATE bookmarks AS b SET is_favorite = @isFavorite, updated_at = @now WHERE b.user_id = @userId AND b.is_favorite != @isFavorite AND ${IN_IDS}`,
      ),
      move: db.prepare<[Params]>(
        `UPDATE bookmarks AS b SET collection_id = @collectionId, updated_at = @now
         WHERE b.user_id = @userId AND b.collection_id IS NOT @collectionId AND ${IN_IDS}`,
      ),
      remove: db.prepare<[string, string]>('DELETE FROM bookmarks WHERE id = ? AND user_id = ?'),
      emptyTrash: db.prepare<[string]>('DELETE FROM bookmarks WHERE user_id = ? AND deleted_at IS NOT NULL'),
      purge: db.prepare<[number]>('DELETE FROM bookmarks WHERE deleted_at IS NOT NULL AND deleted_at < ?'),
      owned: db.prepare<[Params], { id: string; deleted_at: number | null }>(
        `SELECT b.id, b.deleted_at FROM bookmarks b WHERE b.user_id = @userId AND ${IN_IDS}`,
      ),
      // Both kept by triggers (migration 011-counts): reading them costs the same however large the library.
      domains: db.prepare<[string], DomainCount>(
        'SELECT domain, count FROM domain_counts WHERE user_id = ? ORDER BY count DESC, domain ASC',
      ),
      stats: db.prepare<[string], StatsRow>(
        `SELECT ${STATS_COLUMNS} FROM bookmark_stats WHERE user_id = ?`,
      ),
      duplicates: db.prepare<[Params], DuplicateRow & { url_key: string }>(DUPLICATES_SQL),
      favoritesWindow: { title: favoritesWindow('title'), domain: favoritesWindow('domain') },
      tagsOf: db.prepare<[string], TagRow>(
        `SELECT ${TAG_COLUMNS} FROM bookmark_tags l JOIN tags t ON t.id = l.tag_id WHERE l.bookmark_id = ? ORDER BY t.name_key`,
      ),
      tag: db.prepare<[string, string], TagRow>(`SELECT ${TAG_COLUMNS} FROM tags t WHERE t.id = ? AND t.user_id = ?`),
      // Named bookmarks that lack the tag and have no room for another.
      full: db.prepare<[Params], { id: string }>(
        `SELECT b.id FROM bookmarks b WHERE b.user_id = @userId AND ${IN_IDS}
           AND NOT EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = b.id AND l.tag_id = @tagId)
           AND (SELECT COUNT(*) FROM bookmark_tags l WHERE l.bookmark_id = b.id) >= ${MAX_TAGS_PER_BOOKMARK}`,
      ),
      touchTagged: db.prepare<[Params]>(
        `UPDATE bookmarks AS b SET updated_at = @now WHERE b.user_id = @userId AND ${IN_IDS}
           AND EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = b.id AND l.tag_id = @tagId) = @tagged`,
      ),
      link: db.prepare<[Params]>(
        `INSERT OR IGNORE INTO bookmark_tags (bookmark_id, tag_id) SELECT b.id, @tagId FROM bookmarks b
         WHERE b.user_id = @userId AND ${IN_IDS} ORDER BY b.seq`,
      ),
      unlink: db.prepare<[Params]>(
        `DELETE FROM bookmark_tags WHERE tag_id = @tagId
           AND bookmark_id IN (SELECT b.id FROM bookmarks b WHERE b.user_id = @userId AND ${IN_IDS})`,
      ),
    };
  }

  // Reading

  async list(userId: string, query: ListBookmarksQuery): Promise<BookmarkPage> {
    const { sortBy, isFavorite, collectionId, domain, type, url, linkStatus, limit, cursor } = query;
    const windowOrder = favoritesWindowOrder(query);
    if (windowOrder !== null) {
      // The window has no further pages; a cursor is still checked, so that a bad one never passes silently.
      if (cursor !== undefined) decodeCursor(cursor, windowOrder);
      return toFavoritesWindow(this.q.favoritesWindow[windowOrder].all({ userId, limit: limit + 1 }), limit);
    }
    const where = ['b.user_id = @userId', 'b.deleted_at IS NULL'];
    const params: Params = { userId };
    // Literal 0/1 rather than a parameter, so that SQLite can use the partial index of favorites.
    if (isFavorite !== undefined) where.push(`b.is_favorite = ${isFavorite ? 1 : 0}`);
    if (collectionId !== undefined) {
      where.push('b.collection_id = @collectionId');
      params.collectionId = collectionId;
    }
    if (domain !== undefined) {
      where.push('b.domain = @domain');
      params.domain = normaliseDomainFilter(domain);
    }
    if (type !== undefined) {
      where.push('b.type = @type');
      params.type = type;
    }
    if (url !== undefined) {
      where.push('b.url_key = @urlKey');
      params.urlKey = normaliseUrl(url);
    }
    if (linkStatus !== undefined) {
      where.push('b.link_status IN (SELECT value FROM json_each(@linkStatus))');
      params.linkStatus = JSON.stringify(linkStatus);
    }
    return this.page(sortBy, where, params, limit, cursor);
  }

  async listTrash(userId: string, { limit, cursor }: TrashQuery): Promise<BookmarkPage> {
    return this.page('trash', ['b.user_id = @userId', 'b.deleted_at IS NOT NULL'], { userId }, limit, cursor);
  }

  async search(userId: string, text: string, limit: number): Promise<Bookmark[]> {
    return this.searcher.find(userId, text, limit).map(toBookmark);
  }

  async domains(userId: string): Promise<DomainCount[]> {
    return this.q.domains.all(userId);
  }

  async stats(userId: string): Promise<BookmarkStats> {
    return toStats(this.q.stats.get(userId));
  }

  async duplicates(userId: string): Promise<DuplicatesResult> {
    return toDuplicates(this.q.duplicates.all({ userId, groups: MAX_DUPLICATE_GROUPS }));
  }

  async get(userId: string, id: string): Promise<Bookmark> {
    return toBookmark(this.row(userId, id));
  }

  async tagsOf(userId: string, id: string): Promise<Tag[]> {
    this.row(userId, id);
    return this.q.tagsOf.all(id).map(toTag);
  }

  // Saving

  async saveExisting(userId: string, input: CreateBookmarkBody, now: number): Promise<Bookmark | null> {
    return this.db.transaction(() => {
      const id = this.updateExisting(userId, input, now);
      return id === null ? null : this.bookmark(userId, id);
    })();
  }

  async save(userId: string, input: CreateBookmarkBody, detected: DetectedFields, now: number): Promise<SavedBookmark> {
    return this.db.transaction(() => {
      const existing = this.updateExisting(userId, input, now);
      if (existing !== null) return { bookmark: this.bookmark(userId, existing), created: false };
      const collectionId = this.collectionOrNull(userId, input.collectionId ?? null);
      const id = newId('bm');
      this.q.insert.run({
        ...detected,
        id,
        userId,
        url: input.url,
        urlKey: normaliseUrl(input.url),
        note: input.note ?? '',
        isFavorite: input.isFavorite ? 1 : 0,
        collectionId,
        domain: domainOf(input.url),
        now,
      });
      if (input.tags !== undefined) setBookmarkTags(this.db, userId, id, input.tags, now);
      return { bookmark: this.bookmark(userId, id), created: true };
    })();
  }

  async update(userId: string, id: string, patch: PatchBookmarkBody, now: number): Promise<Bookmark> {
    return this.db.transaction(() => {
      const row = this.activeRow(userId, id);
      this.applyFields(userId, row, patch, now);
      return this.bookmark(userId, id);
    })();
  }

  async setFavorite(userId: string, id: string, isFavorite: boolean, now: number): Promise<Bookmark> {
    return this.db.transaction(() => {
      this.activeRow(userId, id);
      this.q.favorite.run({ userId, ids: JSON.stringify([id]), isFavorite: isFavorite ? 1 : 0, now });
      return this.bookmark(userId, id);
    })();
  }

  async move(userId: string, id: string, collectionId: string | null, now: number): Promise<Bookmark> {
    return this.db.transaction(() => {
      this.activeRow(userId, id);
      this.q.move.run({ userId, ids: JSON.stringify([id]), collectionId: this.collectionOrNull(userId, collectionId), now });
      return this.bookmark(userId, id);
    })();
  }

  // Trash

  async trash(userId: string, id: string, now: number): Promise<Bookmark> {
    return this.db.transaction(() => {
      this.row(userId, id);
      this.q.trash.run({ userId, ids: JSON.stringify([id]), now });
      return this.bookmark(userId, id);
    })();
  }

  async restore(userId: string, id: string, now: number): Promise<Bookmark> {
    return this.db.transaction(() => {
      this.row(userId, id);
      this.q.restore.run({ now, id });
      return this.bookmark(userId, id);
    })();
  }

  async deletePermanently(userId: string, id: string): Promise<void> {
    if (this.q.remove.run(id, userId).changes === 0) throw notFound('bookmark', id);
  }

  async emptyTrash(userId: string): Promise<number> {
    return this.q.emptyTrash.run(userId).changes;
  }

  async purgeTrashedBefore(cutoff: number): Promise<number> {
    return this.q.purge.run(cutoff).changes;
  }

  // Tags of one bookmark

  async addTag(userId: string, id: string, name: string, now: number): Promise<Tag[]> {
    return this.db.transaction(() => {
      this.activeRow(userId, id);
      this.tagBookmarks(userId, [id], ensureTags(this.db, userId, [name], now)[0]!, now);
      return this.q.tagsOf.all(id).map(toTag);
    })();
  }

  async removeTag(userId: string, id: string, tagId: string, now: number): Promise<Tag[]> {
    return this.db.transaction(() => {
      this.activeRow(userId, id);
      if (this.untagBookmarks(userId, [id], tagId, now) === 0) {
        throw notOnBookmark(tagId, id);
      }
      return this.q.tagsOf.all(id).map(toTag);
    })();
  }

  // Bulk: every id must be the user's, or nothing changes.

  async bulkTrash(userId: string, ids: string[], now: number): Promise<BulkChange> {
    return this.db.transaction(() => {
      this.requireAll(userId, ids);
      return { ids, changed: this.q.trash.run({ userId, ids: JSON.stringify(ids), now }).changes };
    })();
  }

  async bulkFavorite(userId: string, ids: string[], isFavorite: boolean, now: number): Promise<BulkChange> {
    return this.db.transaction(() => {
      refuseTrashed(this.requireAll(userId, ids));
      const changed = this.q.favorite.run({ userId, ids: JSON.stringify(ids), isFavorite: isFavorite ? 1 : 0, now }).changes;
      return { ids, changed };
    })();
  }

  async bulkMove(userId: string, ids: string[], collectionId: string | null, now: number): Promise<BulkChange> {
    return this.db.transaction(() => {
      const rows = this.requireAll(userId, ids);
      const target = this.collectionOrNull(userId, collectionId);
      refuseTrashed(rows);
      return { ids, changed: this.q.move.run({ userId, ids: JSON.stringify(ids), collectionId: target, now }).changes };
    })();
  }

  async bulkTag(userId: string, ids: string[], name: string, now: number): Promise<BulkChange & { tag: Tag }> {
    return this.db.transaction(() => {
      refuseTrashed(this.requireAll(userId, ids));
      const tagId = ensureTags(this.db, userId, [name], now)[0]!;
      const changed = this.tagBookmarks(userId, ids, tagId, now);
      return { ids, changed, tag: toTag(this.q.tag.get(tagId, userId)!) };
    })();
  }

  async bulkUntag(userId: string, ids: string[], tagId: string, now: number): Promise<BulkChange> {
    return this.db.transaction(() => {
      const rows = this.requireAll(userId, ids);
      if (this.q.tag.get(tagId, userId) === undefined) throw notFound('tag', tagId);
      refuseTrashed(rows);
      return { ids, changed: this.untagBookmarks(userId, ids, tagId, now) };
    })();
  }

  // Helpers (the ones that write run inside the caller's transaction)

  private row(userId: string, id: string): BookmarkRow {
    const row = this.q.byId.get(id, userId);
    if (row === undefined) throw notFound('bookmark', id);
    return row;
  }

  private activeRow(userId: string, id: string): BookmarkRow {
    const row = this.row(userId, id);
    refuseIfTrashed(row);
    return row;
  }

  private bookmark(userId: string, id: string): Bookmark {
    return toBookmark(this.row(userId, id));
  }

  /** The collection id when it names an active collection of the user; null stays null (Unsorted). */
  private collectionOrNull(userId: string, collectionId: string | null): string | null {
    if (collectionId !== null && this.q.activeCollection.get(collectionId, userId) === undefined) {
      throw notFound('collection', collectionId);
    }
    return collectionId;
  }

  private requireAll(userId: string, ids: string[]): { id: string; deleted_at: number | null }[] {
    const rows = this.q.owned.all({ userId, ids: JSON.stringify(ids) });
    requireFound(ids, rows);
    return rows;
  }

  /** Links the tag to the named bookmarks; answers how many did not have it. */
  private tagBookmarks(userId: string, ids: string[], tagId: string, now: number): number {
    const params = { userId, ids: JSON.stringify(ids), tagId, now, tagged: 0 };
    refuseFull(this.q.full.all(params).map((r) => r.id));
    this.q.touchTagged.run(params);
    return this.q.link.run(params).changes;
  }

  /** Unlinks the tag from the named bookmarks; answers how many had it. */
  private untagBookmarks(userId: string, ids: string[], tagId: string, now: number): number {
    const params = { userId, ids: JSON.stringify(ids), tagId, now, tagged: 1 };
    this.q.touchTagged.run(params);
    return this.q.unlink.run(params).changes;
  }

  /** POST of a URL the user has: the active bookmark, else the trashed one restored, gets the supplied fields. */
  private updateExisting(userId: string, input: CreateBookmarkBody, now: number): string | null {
    const active = this.q.activeByUrl.get(userId, input.url);
    const trashed = active === undefined ? this.q.trashedByUrl.get(userId, input.url) : undefined;
    const id = active?.id ?? trashed?.id;
    if (id === undefined) return null;
    if (trashed !== undefined) this.q.restore.run({ now, id });
    // An empty title asks for detection on a new bookmark; it never blanks an existing one.
    const { url: _url, title, ...fields } = input;
    this.applyFields(userId, this.row(userId, id), title ? { ...fields, title } : fields, now);
    return id;
  }

  /** Writes the supplied fields; updated_at moves when any field is supplied. */
  private applyFields(userId: string, row: BookmarkRow, patch: PatchBookmarkBody, now: number): void {
    const sets: string[] = [];
    const params: Params = { id: row.id, now };
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = @${column}`);
      params[column] = value;
    };
    const url = patch.url ?? row.url;
    if (patch.url !== undefined) {
      const other = this.q.otherActiveByUrl.get(userId, patch.url, row.id);
      if (other !== undefined) throw urlTaken(other.id);
      set('url', patch.url);
      set('url_key', normaliseUrl(patch.url));
      set('domain', domainOf(patch.url));
      // A new URL is checked again first: what the checker said about the old one no longer holds.
      set('link_checked_at', 0);
    }
    if (patch.title !== undefined) set('title', titleOr(patch.title, url));
    for (const [field, column] of Object.entries(PLAIN_COLUMNS) as [keyof typeof PLAIN_COLUMNS, string][]) {
      if (patch[field] !== undefined) set(column, patch[field]);
    }
    if (patch.isFavorite !== undefined) set('is_favorite', patch.isFavorite ? 1 : 0);
    if (patch.collectionId !== undefined) set('collection_id', this.collectionOrNull(userId, patch.collectionId));
    if (patch.tags !== undefined) setBookmarkTags(this.db, userId, row.id, patch.tags, now);
    if (sets.length > 0 || patch.tags !== undefined) {
      this.shaped(`UPDATE bookmarks SET ${[...sets, 'updated_at = @now'].join(', ')} WHERE id = @id`).run(params);
    }
  }

  private page(order: CursorOrder, where: string[], params: Params, limit: number, cursor: string | undefined): BookmarkPage {
    const { by, after, partlyIndexed } = ORDERS[order];
    const args: Params = { ...params, limit: limit + 1 };
    if (cursor !== undefined) {
      const k = decodeCursor(cursor, order);
      Object.assign(args, { afterSeq: k.seq, afterTime: k.time, afterText: k.text });
    }
    const conditions = cursor === undefined ? where : [...where, `(${after})`];
    const filter = `WHERE ${conditions.join(' AND ')} ORDER BY ${by} LIMIT @limit`;
    const sql = partlyIndexed
      ? `SELECT ${BOOKMARK_COLUMNS} FROM (SELECT b.seq FROM bookmarks b ${filter}) page JOIN bookmarks b ON b.seq = page.seq ORDER BY ${by}`
      : `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b ${filter}`;
    return toPage(order, this.shaped(sql).all(args), limit);
  }

  private shaped(sql: string): Database.Statement<[Params], BookmarkRow> {
    let statement = this.shapes.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare<[Params], BookmarkRow>(sql);
      this.shapes.set(sql, statement);
    }
    return statement;
  }
}
