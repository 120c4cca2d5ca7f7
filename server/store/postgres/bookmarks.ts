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
import { Params } from '../../db/postgres/params.ts';
import type { Pg, Sql } from '../../db/postgres/pg.ts';
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
import { cursorBounds, ORDERS } from './bookmark-orders.ts';
import { BOOKMARK_COLUMNS, DUPLICATE_COLUMNS } from './bookmark-rows.ts';
import { PgBookmarkSearch } from './bookmark-search.ts';
import { ensureTags, setBookmarkTags } from './tag-rows.ts';

type Row = BookmarkRow & Record<string, unknown>;
type Owned = { id: string; deleted_at: number | null };

/** The named bookmarks of the user ($1) among the ids ($2), in the order named. */
const NAMED = 'unnest($2::text[]) WITH ORDINALITY AS x(id, i) JOIN bookmarks b ON b.id = x.id AND b.user_id = $1';
/** Bulk statements take the user as $1 and the ids as $2. */
const IN_IDS = 'b.user_id = $1 AND b.id = ANY($2::text[])';

const SQL = {
  byId: `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.id = $1 AND b.user_id = $2`,
  activeByUrl:
    'SELECT b.id FROM bookmarks b WHERE b.user_id = $1 AND b.url = $2 AND b.deleted_at IS NULL ORDER BY b.created_at DESC, b.seq DESC LIMIT 1',
  trashedByUrl:
    'SELECT b.id FROM bookmarks b WHERE b.user_id = $1 AND b.url = $2 AND b.deleted_at IS NOT NULL ORDER BY b.deleted_at DESC, b.seq DESC LIMIT 1',
  otherActiveByUrl: 'SELECT id FROM bookmarks WHERE user_id = $1 AND url = $2 AND deleted_at IS NULL AND id != $3 LIMIT 1',
  activeCollection: 'SELECT id FROM collections WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL',
  insert: `INSERT INTO bookmarks (id, user_id, url, url_key, title, description, excerpt, note, type, is_favorite, collection_id,
             domain, favicon, metadata_status, link_status, last_checked_at, http_status_code, created_at, updated_at, link_checked_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $16, $16,
             CASE WHEN $15 = 'unchecked' THEN 0 ELSE $16::bigint END)`,
  trash: `UPDATE bookmarks AS b SET deleted_at = $3, updated_at = $3 WHERE ${IN_IDS} AND b.deleted_at IS NULL`,
  // A bookmark whose collection is no longer active comes back Unsorted, out of that collection's trash.
  restore: `UPDATE bookmarks AS b SET deleted_at = NULL, trash_root = NULL, updated_at = $1,
              collection_id = (SELECT c.id FROM collections c WHERE c.id = b.collection_id AND c.user_id = b.user_id AND c.deleted_at IS NULL)
            WHERE b.id = $2 AND b.deleted_at IS NOT NULL`,
  favorite: `UPDATE bookmarks AS b SET is_favorite = $3, updated_at = $4 WHERE ${IN_IDS} AND b.is_favorite != $3`,
  move: `UPDATE bookmarks AS b SET collection_id = $3, updated_at = $4 WHERE ${IN_IDS} AND b.collection_id IS DISTINCT FROM $3`,
  remove: 'DELETE FROM bookmarks WHERE id = $1 AND user_id = $2',
  emptyTrash: 'DELETE FROM bookmarks WHERE user_id = $1 AND deleted_at IS NOT NULL',
  purge: 'DELETE FROM bookmarks WHERE deleted_at IS NOT NULL AND deleted_at < $1',
  owned: `SELECT b.id, b.deleted_at FROM ${NAMED} ORDER BY x.i`,
  // Both kept by triggers (001-schema.sql): reading them costs the same however large the library.
  domains: 'SELECT domain, count FROM domain_counts WHERE user_id = $1 ORDER BY count DESC, domain ASC',
  stats: `SELECT ${STATS_COLUMNS} FROM bookmark_stats WHERE user_id = $1`,
  // Groups ordered by their newest member; members oldest first. Only URLs saved twice or more
  // are read, from the counts the triggers keep.
  duplicates: `WITH g AS (
                 SELECT k.url_key,
                   (SELECT MAX(m.created_at) FROM bookmarks m WHERE m.user_id = $1 AND m.url_key = k.url_key AND m.deleted_at IS NULL) AS newest,
                   (SELECT MAX(m.seq) FROM bookmarks m WHERE m.user_id = $1 AND m.url_key = k.url_key AND m.deleted_at IS NULL) AS top
                 FROM url_key_counts k WHERE k.user_id = $1 AND k.count >= 2
                 ORDER BY newest DESC, top DESC LIMIT $2)
               SELECT ${DUPLICATE_COLUMNS}, b.url_key FROM g JOIN bookmarks b ON b.user_id = $1 AND b.url_key = g.url_key AND b.deleted_at IS NULL
               ORDER BY g.newest DESC, g.top DESC, b.created_at ASC, b.seq ASC`,
  tagsOf: `SELECT ${TAG_COLUMNS} FROM bookmark_tags l JOIN tags t ON t.id = l.tag_id WHERE l.bookmark_id = $1 ORDER BY t.name_key`,
  tag: `SELECT ${TAG_COLUMNS} FROM tags t WHERE t.id = $1 AND t.user_id = $2`,
  // Named bookmarks that lack the tag ($3) and have no room for another.
  full: `SELECT b.id FROM ${NAMED}
         WHERE NOT EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = b.id AND l.tag_id = $3)
           AND (SELECT COUNT(*) FROM bookmark_tags l WHERE l.bookmark_id = b.id) >= ${MAX_TAGS_PER_BOOKMARK}
         ORDER BY x.i`,
  touchTagged: `UPDATE bookmarks AS b SET updated_at = $4 WHERE ${IN_IDS}
                  AND EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = b.id AND l.tag_id = $3) = $5::boolean`,
  link: `INSERT INTO bookmark_tags (bookmark_id, tag_id) SELECT b.id, $3 FROM bookmarks b WHERE ${IN_IDS} ORDER BY b.seq
         ON CONFLICT DO NOTHING`,
  unlink: `DELETE FROM bookmark_tags WHERE tag_id = $3 AND bookmark_id IN (SELECT b.id FROM bookmarks b WHERE ${IN_IDS})`,
};

/** The most recently saved favorites (one more than the window, to tell whether it is truncated), in the list's order. */
const favoritesWindow = (order: 'title' | 'domain') =>
  `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.seq IN (
     SELECT w.seq FROM bookmarks w WHERE w.user_id = $1 AND w.deleted_at IS NULL AND w.is_favorite = 1
     ORDER BY w.created_at DESC, w.seq DESC LIMIT $2)
   ORDER BY ${ORDERS[order].by}`;

/** Each user's bookmarks in PostgreSQL: the behaviour of SqliteBookmarks, a user's writes one at a time. */
export class PgBookmarks implements BookmarksStore {
  private searcher: PgBookmarkSearch;

  constructor(private db: Pg) {
    this.searcher = new PgBookmarkSearch(db);
  }

  /** One transaction on the user's library, under the lock every store takes for it. */
  private write<T>(userId: string, fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.db.transaction(fn, { lock: `user:${userId}` });
  }

  // Reading

  async list(userId: string, query: ListBookmarksQuery): Promise<BookmarkPage> {
    const { sortBy, isFavorite, collectionId, domain, type, url, linkStatus, limit, cursor } = query;
    const windowOrder = favoritesWindowOrder(query);
    if (windowOrder !== null) {
      // The window has no further pages; a cursor is still checked, so that a bad one never passes silently.
      if (cursor !== undefined) decodeCursor(cursor, windowOrder);
      return toFavoritesWindow(await this.db.all<Row>(favoritesWindow(windowOrder), [userId, limit + 1]), limit);
    }
    const p = new Params();
    const where = [`b.user_id = ${p.add(userId)}`, 'b.deleted_at IS NULL'];
    // Literal 0/1 rather than a parameter, so that the partial index of favorites applies.
    if (isFavorite !== undefined) where.push(`b.is_favorite = ${isFavorite ? 1 : 0}`);
    if (collectionId !== undefined) where.push(`b.collection_id = ${p.add(collectionId)}`);
    if (domain !== undefined) where.push(`b.domain = ${p.add(normaliseDomainFilter(domain))}`);
    if (type !== undefined) where.push(`b.type = ${p.add(type)}`);
    if (url !== undefined) where.push(`b.url_key = ${p.add(normaliseUrl(url))}`);
    if (linkStatus !== undefined) where.push(`b.link_status = ANY(${p.add(linkStatus)}::text[])`);
    return this.page(sortBy, where, p, limit, cursor);
  }

  async listTrash(userId: string, { limit, cursor }: TrashQuery): Promise<BookmarkPage> {
    const p = new Params();
    return this.page('trash', [`b.user_id = ${p.add(userId)}`, 'b.deleted_at IS NOT NULL'], p, limit, cursor);
  }

  async search(userId: string, text: string, limit: number): Promise<Bookmark[]> {
    return (await this.searcher.find(userId, text, limit)).map(toBookmark);
  }

  async domains(userId: string): Promise<DomainCount[]> {
    return this.db.all<DomainCount & Record<string, unknown>>(SQL.domains, [userId]);
  }

  async stats(userId: string): Promise<BookmarkStats> {
    return toStats(await this.db.get<StatsRow & Record<string, unknown>>(SQL.stats, [userId]));
  }

  async duplicates(userId: string): Promise<DuplicatesResult> {
    return toDuplicates(await this.db.all<DuplicateRow & { url_key: string } & Record<string, unknown>>(SQL.duplicates, [userId, MAX_DUPLICATE_GROUPS]));
  }

  async get(userId: string, id: string): Promise<Bookmark> {
    return toBookmark(await this.row(this.db, userId, id));
  }

  async tagsOf(userId: string, id: string): Promise<Tag[]> {
    await this.row(this.db, userId, id);
    return this.tags(this.db, id);
  }

  // Saving

  async saveExisting(userId: string, input: CreateBookmarkBody, now: number): Promise<Bookmark | null> {
    return this.write(userId, async (tx) => {
      const id = await this.updateExisting(tx, userId, input, now);
      return id === null ? null : this.bookmark(tx, userId, id);
    });
  }

  async save(userId: string, input: CreateBookmarkBody, detected: DetectedFields, now: number): Promise<SavedBookmark> {
    return this.write(userId, async (tx) => {
      const existing = await this.updateExisting(tx, userId, input, now);
      if (existing !== null) return { bookmark: await this.bookmark(tx, userId, existing), created: false };
      const collectionId = await this.collectionOrNull(tx, userId, input.collectionId ?? null);
      const id = newId('bm');
      await tx.run(SQL.insert, [
        id, userId, input.url, normaliseUrl(input.url), detected.title, detected.description, detected.excerpt,
        input.note ?? '', detected.type, input.isFavorite ? 1 : 0, collectionId, domainOf(input.url), detected.favicon,
        detected.metadataStatus, detected.linkStatus, now, detected.httpStatusCode,
      ]);
      if (input.tags !== undefined) await setBookmarkTags(tx, userId, id, input.tags, now);
      return { bookmark: await this.bookmark(tx, userId, id), created: true };
    });
  }

  async update(userId: string, id: string, patch: PatchBookmarkBody, now: number): Promise<Bookmark> {
    return this.write(userId, async (tx) => {
      const row = await this.activeRow(tx, userId, id);
      await this.applyFields(tx, userId, row, patch, now);
      return this.bookmark(tx, userId, id);
    });
  }

  async setFavorite(userId: string, id: string, isFavorite: boolean, now: number): Promise<Bookmark> {
    return this.write(userId, async (tx) => {
      await this.activeRow(tx, userId, id);
      await tx.run(SQL.favorite, [userId, [id], isFavorite ? 1 : 0, now]);
      return this.bookmark(tx, userId, id);
    });
  }

  async move(userId: string, id: string, collectionId: string | null, now: number): Promise<Bookmark> {
    return this.write(userId, async (tx) => {
      await this.activeRow(tx, userId, id);
      await tx.run(SQL.move, [userId, [id], await this.collectionOrNull(tx, userId, collectionId), now]);
      return this.bookmark(tx, userId, id);
    });
  }

  // Trash

  async trash(userId: string, id: string, now: number): Promise<Bookmark> {
    return this.write(userId, async (tx) => {
      await this.row(tx, userId, id);
      await tx.run(SQL.trash, [userId, [id], now]);
      return this.bookmark(tx, userId, id);
    });
  }

  async restore(userId: string, id: string, now: number): Promise<Bookmark> {
    return this.write(userId, async (tx) => {
      await this.row(tx, userId, id);
      await tx.run(SQL.restore, [now, id]);
      return this.bookmark(tx, userId, id);
    });
  }

  async deletePermanently(userId: string, id: string): Promise<void> {
    const removed = await this.write(userId, (tx) => tx.run(SQL.remove, [id, userId]));
    if (removed === 0) throw notFound('bookmark', id);
  }

  async emptyTrash(userId: string): Promise<number> {
    return this.write(userId, (tx) => tx.run(SQL.emptyTrash, [userId]));
  }

  async purgeTrashedBefore(cutoff: number): Promise<number> {
    return this.db.run(SQL.purge, [cutoff]);
  }

  // Tags of one bookmark

  async addTag(userId: string, id: string, name: string, now: number): Promise<Tag[]> {
    return this.write(userId, async (tx) => {
      await this.activeRow(tx, userId, id);
      const [tagId] = await ensureTags(tx, userId, [name], now);
      await this.tagBookmarks(tx, userId, [id], tagId!, now);
      return this.tags(tx, id);
    });
  }

  async removeTag(userId: string, id: string, tagId: string, now: number): Promise<Tag[]> {
    return this.write(userId, async (tx) => {
      await this.activeRow(tx, userId, id);
      if ((await this.untagBookmarks(tx, userId, [id], tagId, now)) === 0) throw notOnBookmark(tagId, id);
      return this.tags(tx, id);
    });
  }

  // Bulk: every id must be the user's, or nothing changes.

  async bulkTrash(userId: string, ids: string[], now: number): Promise<BulkChange> {
    return this.write(userId, async (tx) => {
      await this.requireAll(tx, userId, ids);
      return { ids, changed: await tx.run(SQL.trash, [userId, ids, now]) };
    });
  }

  async bulkFavorite(userId: string, ids: string[], isFavorite: boolean, now: number): Promise<BulkChange> {
    return this.write(userId, async (tx) => {
      refuseTrashed(await this.requireAll(tx, userId, ids));
      return { ids, changed: await tx.run(SQL.favorite, [userId, ids, isFavorite ? 1 : 0, now]) };
    });
  }

  async bulkMove(userId: string, ids: string[], collectionId: string | null, now: number): Promise<BulkChange> {
    return this.write(userId, async (tx) => {
      const rows = await this.requireAll(tx, userId, ids);
      const target = await this.collectionOrNull(tx, userId, collectionId);
      refuseTrashed(rows);
      return { ids, changed: await tx.run(SQL.move, [userId, ids, target, now]) };
    });
  }

  async bulkTag(userId: string, ids: string[], name: string, now: number): Promise<BulkChange & { tag: Tag }> {
    return this.write(userId, async (tx) => {
      refuseTrashed(await this.requireAll(tx, userId, ids));
      const [tagId] = await ensureTags(tx, userId, [name], now);
      const changed = await this.tagBookmarks(tx, userId, ids, tagId!, now);
      return { ids, changed, tag: toTag((await tx.get<TagRow & Record<string, unknown>>(SQL.tag, [tagId, userId]))!) };
    });
  }

  async bulkUntag(userId: string, ids: string[], tagId: string, now: number): Promise<BulkChange> {
    return this.write(userId, async (tx) => {
      const rows = await this.requireAll(tx, userId, ids);
      if ((await tx.get(SQL.tag, [tagId, userId])) === undefined) throw notFound('tag', tagId);
      refuseTrashed(rows);
      return { ids, changed: await this.untagBookmarks(tx, userId, ids, tagId, now) };
    });
  }

  // Helpers (the ones that write run inside the caller's transaction)

  private async row(sql: Sql, userId: string, id: string): Promise<BookmarkRow> {
    const row = await sql.get<Row>(SQL.byId, [id, userId]);
    if (row === undefined) throw notFound('bookmark', id);
    return row;
  }

  private async activeRow(sql: Sql, userId: string, id: string): Promise<BookmarkRow> {
    const row = await this.row(sql, userId, id);
    refuseIfTrashed(row);
    return row;
  }

  private async bookmark(sql: Sql, userId: string, id: string): Promise<Bookmark> {
    return toBookmark(await this.row(sql, userId, id));
  }

  private async tags(sql: Sql, id: string): Promise<Tag[]> {
    return (await sql.all<TagRow & Record<string, unknown>>(SQL.tagsOf, [id])).map(toTag);
  }

  /** The collection id when it names an active collection of the user; null stays null (Unsorted). */
  private async collectionOrNull(sql: Sql, userId: string, collectionId: string | null): Promise<string | null> {
    if (collectionId !== null && (await sql.get(SQL.activeCollection, [collectionId, userId])) === undefined) {
      throw notFound('collection', collectionId);
    }
    return collectionId;
  }

  private async requireAll(sql: Sql, userId: string, ids: string[]): Promise<Owned[]> {
    const rows = await sql.all<Owned>(SQL.owned, [userId, ids]);
    requireFound(ids, rows);
    return rows;
  }

  /** Links the tag to the named bookmarks; answers how many did not have it. */
  private async tagBookmarks(sql: Sql, userId: string, ids: string[], tagId: string, now: number): Promise<number> {
    refuseFull((await sql.all<{ id: string }>(SQL.full, [userId, ids, tagId])).map((r) => r.id));
    await sql.run(SQL.touchTagged, [userId, ids, tagId, now, false]);
    return sql.run(SQL.link, [userId, ids, tagId]);
  }

  /** Unlinks the tag from the named bookmarks; answers how many had it. */
  private async untagBookmarks(sql: Sql, userId: string, ids: string[], tagId: string, now: number): Promise<number> {
    await sql.run(SQL.touchTagged, [userId, ids, tagId, now, true]);
    return sql.run(SQL.unlink, [userId, ids, tagId]);
  }

  /** POST of a URL the user has: the active bookmark, else the trashed one restored, gets the supplied fields. */
  private async updateExisting(sql: Sql, userId: string, input: CreateBookmarkBody, now: number): Promise<string | null> {
    const active = await sql.get<{ id: string }>(SQL.activeByUrl, [userId, input.url]);
    const trashed = active === undefined ? await sql.get<{ id: string }>(SQL.trashedByUrl, [userId, input.url]) : undefined;
    const id = active?.id ?? trashed?.id;
    if (id === undefined) return null;
    if (trashed !== undefined) await sql.run(SQL.restore, [now, id]);
    // An empty title asks for detection on a new bookmark; it never blanks an existing one.
    const { url: _url, title, ...fields } = input;
    await this.applyFields(sql, userId, await this.row(sql, userId, id), title ? { ...fields, title } : fields, now);
    return id;
  }

  /** Writes the supplied fields; updated_at moves when any field is supplied. */
  private async applyFields(sql: Sql, userId: string, row: BookmarkRow, patch: PatchBookmarkBody, now: number): Promise<void> {
    const p = new Params();
    const sets: string[] = [];
    const set = (column: string, value: unknown) => sets.push(`${column} = ${p.add(value)}`);
    const url = patch.url ?? row.url;
    if (patch.url !== undefined) {
      const other = await sql.get<{ id: string }>(SQL.otherActiveByUrl, [userId, patch.url, row.id]);
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
    if (patch.collectionId !== undefined) set('collection_id', await this.collectionOrNull(sql, userId, patch.collectionId));
    if (patch.tags !== undefined) await setBookmarkTags(sql, userId, row.id, patch.tags, now);
    if (sets.length > 0 || patch.tags !== undefined) {
      set('updated_at', now);
      await sql.run(`UPDATE bookmarks SET ${sets.join(', ')} WHERE id = ${p.add(row.id)}`, p.values);
    }
  }

  private async page(order: CursorOrder, where: string[], p: Params, limit: number, cursor: string | undefined): Promise<BookmarkPage> {
    const { by, after } = ORDERS[order];
    const conditions = [...where];
    if (cursor !== undefined) {
      const key = decodeCursor(cursor, order);
      const bounds = cursorBounds(order, key);
      const once = (value: string) => {
        let placeholder: string | undefined;
        return () => (placeholder ??= p.add(value));
      };
      conditions.push(`(${after({ time: once(bounds.time), text: once(key.text), seq: once(bounds.seq) })})`);
    }
    const sql = `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE ${conditions.join(' AND ')} ORDER BY ${by} LIMIT ${p.add(limit + 1)}`;
    return toPage(order, await this.db.all<Row>(sql, p.values), limit);
  }
}
