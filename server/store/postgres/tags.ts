import { TagName } from '../../../lib/api/bookmarks.ts';
import type { Tag } from '../../../lib/api/tags.ts';
import type { Pg, Row, Sql } from '../../db/postgres/pg.ts';
import { notFound } from '../../http/api-error.ts';
import { type BookmarkRow, toBookmark } from '../shared/bookmark-rows.ts';
import { tagKey } from '../shared/tag-names.ts';
import { TAG_COLUMNS, type TagRow as TagObjectRow, toTag } from '../shared/tag-objects.ts';
import { type Link, firstMeetings } from '../shared/tag-slices.ts';
import * as tree from '../shared/tag-tree.ts';
import type { SubtreeTag as TagRow } from '../shared/tag-tree.ts';
import type { MergeResult, TagBookmarks, TagDeletedResult, TagsStore } from '../tags.ts';
import { BOOKMARK_COLUMNS } from './bookmark-rows.ts';
import { forEachChunk, forEachLinkChunk } from './tag-links.ts';
import { ensureTags } from './tag-rows.ts';

const userLock = (userId: string) => ({ lock: `user:${userId}` });

const bookmarkIdsOf = (links: readonly Link[]): string[] => links.map((l) => l.bookmark_id);
const seqsOf = (links: readonly Link[]): number[] => links.map((l) => l.seq);

/** Moves updatedAt of the bookmarks of each slice of links, each bookmark once per operation. */
function toucher(now: number): (tx: Sql, links: readonly Link[]) => Promise<void> {
  const fresh = firstMeetings();
  return async (tx, links) => {
    const ids = fresh(links);
    if (ids.length > 0) await tx.run('UPDATE bookmarks SET updated_at = $1 WHERE id = ANY($2)', [now, ids]);
  };
}

const unlink = (tx: Sql, links: readonly Link[]) => tx.run('DELETE FROM bookmark_tags WHERE seq = ANY($1::bigint[])', [seqsOf(links)]);

export class PgTags implements TagsStore {
  constructor(private db: Pg) {}

  async list(userId: string): Promise<Tag[]> {
    const rows = await this.db.all<TagObjectRow & Row>(`SELECT ${TAG_COLUMNS} FROM tags t WHERE t.user_id = $1 ORDER BY t.name_key`, [userId]);
    return rows.map(toTag);
  }

  async create(userId: string, input: { name: string; color?: string | undefined }, now: number): Promise<Tag> {
    const id = await this.db.transaction(async (tx) => {
      const existing = await this.byKey(tx, userId, tagKey(input.name));
      if (existing) throw tree.tagExists(existing);
      const [created] = (await ensureTags(tx, userId, [input.name], now)) as [string];
      if (input.color !== undefined) await tx.run('UPDATE tags SET color = $1 WHERE id = $2', [input.color, created]);
      return created;
    }, userLock(userId));
    return (await this.object(userId, id))!;
  }

  /**
   * The names change in one transaction (at most MAX_TAGS_PER_USER rows, one statement); the
   * bookmarks carrying the tags, which may be any number, get their updatedAt moved afterwards,
   * in slices.
   */
  async rename(userId: string, id: string, newName: string, now: number): Promise<Tag> {
    const members = await this.db.transaction(async (tx) => {
      const tag = await this.tag(tx, userId, id);
      tree.checkNotUnderItself(tag, newName);
      const members = await this.withDescendants(tx, userId, tag);
      const renamed = tree.renamedSubtree(members, newName);
      const parent = tree.parentName(newName);
      const parentId = parent === null ? null : (await ensureTags(tx, userId, [parent], now))[0]!;
      const ids = members.map((m) => m.id);
      // Looked up first: a unique violation would abort the transaction before it could say which name is taken.
      const keys = renamed.map((r) => tagKey(r.name));
      const taken = await tx.all<TagRow>('SELECT id, name, name_key FROM tags WHERE user_id = $1 AND name_key = ANY($2::text[])', [userId, keys]);
      const byKey = new Map(taken.map((t) => [t.name_key, t]));
      const refusal = tree.takenOutside(renamed, new Set(ids), (key) => byKey.get(key));
      if (refusal) throw refusal;
      await tx.run(
        `UPDATE tags t SET name = r.name, name_key = r.key FROM unnest($1::text[], $2::text[], $3::text[]) AS r(id, name, key)
         WHERE t.id = r.id`,
        [ids, renamed.map((r) => r.name), keys],
      );
      await tx.run('UPDATE tags SET parent_id = $1 WHERE id = $2', [parentId, id]);
      return ids;
    }, userLock(userId));
    await forEachLinkChunk(this.db, userId, members, toucher(now));
    const renamed = await this.object(userId, id);
    if (renamed === null) throw notFound('tag', id);
    return renamed;
  }

  /**
   * In slices, as a tag may carry any number of bookmarks: the links go first, then the tags,
   * deepest first; the tag itself goes last, with any descendant or link made meanwhile.
   * Stopped half-way (a crash), what is left is a smaller subtree with all its ancestors, and
   * the DELETE can be sent again.
   */
  async remove(userId: string, id: string, now: number): Promise<TagDeletedResult> {
    const members = await this.withDescendants(this.db, userId, await this.tag(this.db, userId, id));
    const touch = toucher(now);
    await forEachLinkChunk(
      this.db,
      userId,
      members.map((m) => m.id),
      async (tx, links) => {
        await touch(tx, links);
        await unlink(tx, links);
      },
    );
    let tags = 0;
    const deleteTags = async (tx: Sql, ids: readonly string[]) => {
      await tx.run('UPDATE bookmarks SET updated_at = $1 WHERE id IN (SELECT bookmark_id FROM bookmark_tags WHERE tag_id = ANY($2))', [
        now,
        ids,
      ]);
      // Links made while the slices ran go with their tags (ON DELETE CASCADE).
      tags += await tx.run('DELETE FROM tags WHERE id = ANY($1)', [ids]);
    };
    await forEachChunk(this.db, userId, tree.deepestFirst(members.slice(1)), deleteTags);
    await this.db.transaction(
      async (tx) => deleteTags(tx, tree.deepestFirst(await this.withDescendants(tx, userId, await this.tag(tx, userId, id)))),
      userLock(userId),
    );
    return { id, deleted: true, tags };
  }

  /**
   * The source's links move to the target in slices, each checking again that both tags are
   * there and the source has no child; the source goes with the last slice. Stopped half-way,
   * the merge can be sent again and moves the rest (`moved` then counts the rest).
   */
  async merge(userId: string, sourceId: string, targetId: string, now: number): Promise<MergeResult> {
    if (sourceId === targetId) throw tree.mergeIntoItself();
    const check = async (sql: Sql) => {
      const source = await this.tag(sql, userId, sourceId);
      await this.tag(sql, userId, targetId);
      if (await sql.get('SELECT 1 FROM tags WHERE parent_id = $1 LIMIT 1', [sourceId])) throw tree.mergeOfParent(source);
    };
    let moved = 0;
    const move = async (tx: Sql, links: Link[]) => {
      await check(tx);
      await tx.run('UPDATE bookmarks SET updated_at = $1 WHERE id = ANY($2)', [now, bookmarkIdsOf(links)]);
      // In the source's link order, which the target's memberships keep.
      await tx.run(
        `INSERT INTO bookmark_tags (bookmark_id, tag_id) SELECT b.id, $1 FROM unnest($2::text[]) WITH ORDINALITY AS b(id, n) ORDER BY b.n
         ON CONFLICT (bookmark_id, tag_id) DO NOTHING`,
        [targetId, bookmarkIdsOf(links)],
      );
      await unlink(tx, links);
      moved += links.length;
    };
    await check(this.db);
    await forEachLinkChunk(this.db, userId, [sourceId], move);
    await this.db.transaction(async (tx) => {
      await move(tx, await tx.all<Link & Row>('SELECT seq, bookmark_id FROM bookmark_tags WHERE tag_id = $1 ORDER BY seq', [sourceId]));
      await tx.run('DELETE FROM tags WHERE id = $1', [sourceId]);
    }, userLock(userId));
    return { target: (await this.object(userId, targetId))!, moved };
  }

  async bookmarksById(userId: string, id: string, limit: number): Promise<TagBookmarks> {
    return this.tagBookmarks(userId, await this.object(userId, id), limit);
  }

  async bookmarksByName(userId: string, name: string, limit: number): Promise<TagBookmarks> {
    // A name that could not be a tag's (say "a//b") names no tag: the same answer as an unknown one.
    const parsed = TagName.safeParse(name);
    const row = parsed.success ? await this.byKey(this.db, userId, tagKey(parsed.data)) : undefined;
    return this.tagBookmarks(userId, row ? await this.object(userId, row.id) : null, limit);
  }

  private async tagBookmarks(userId: string, tag: Tag | null, limit: number): Promise<TagBookmarks> {
    if (tag === null) return { bookmarks: [], tag: null };
    const rows = await this.db.all<BookmarkRow & Row>(
      `SELECT ${BOOKMARK_COLUMNS} FROM bookmark_tags bt JOIN bookmarks b ON b.id = bt.bookmark_id
       WHERE bt.tag_id = $1 AND b.user_id = $2 AND b.deleted_at IS NULL
       ORDER BY b.created_at DESC, b.seq DESC LIMIT $3`,
      [tag.id, userId, limit],
    );
    return { bookmarks: rows.map(toBookmark), tag };
  }

  private async object(userId: string, id: string): Promise<Tag | null> {
    const row = await this.db.get<TagObjectRow & Row>(`SELECT ${TAG_COLUMNS} FROM tags t WHERE t.user_id = $1 AND t.id = $2`, [userId, id]);
    return row ? toTag(row) : null;
  }

  private byKey(sql: Sql, userId: string, key: string): Promise<TagRow | undefined> {
    return sql.get<TagRow>('SELECT id, name, name_key FROM tags WHERE user_id = $1 AND name_key = $2', [userId, key]);
  }

  private async tag(sql: Sql, userId: string, id: string): Promise<TagRow> {
    const row = await sql.get<TagRow>('SELECT id, name, name_key FROM tags WHERE user_id = $1 AND id = $2', [userId, id]);
    if (!row) throw notFound('tag', id);
    return row;
  }

  /** The tag and every tag whose name lies under it. */
  private async withDescendants(sql: Sql, userId: string, tag: TagRow): Promise<TagRow[]> {
    // starts_with rather than LIKE: names may hold % and _.
    const descendants = await sql.all<TagRow>('SELECT id, name, name_key FROM tags WHERE user_id = $1 AND starts_with(name_key, $2) ORDER BY name_key', [
      userId,
      `${tag.name_key}/`,
    ]);
    return [tag, ...descendants];
  }
}
