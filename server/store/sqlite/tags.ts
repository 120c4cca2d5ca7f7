import { dirname } from 'node:path';
import type { Statement } from 'better-sqlite3';
import { TagName } from '../../../lib/api/bookmarks.ts';
import type { Tag } from '../../../lib/api/tags.ts';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/api-error.ts';
import type { MergeResult, TagBookmarks, TagDeletedResult, TagsStore } from '../tags.ts';
import { type BookmarkRow, toBookmark } from '../shared/bookmark-rows.ts';
import { TAG_COLUMNS, type TagRow as TagObjectRow, toTag } from '../shared/tag-objects.ts';
import { tagKey } from '../shared/tag-names.ts';
import { BOOKMARK_COLUMNS } from './bookmark-rows.ts';
import { type Link, firstMeetings } from '../shared/tag-slices.ts';
import { deepestFirst, mergeIntoItself, mergeOfParent, tagExists } from '../shared/tag-tree.ts';
import { forEachChunk, forEachLinkChunk } from './tag-links.ts';
import { TagLookups } from './tag-lookups.ts';
import { RenameThread } from './tag-rename-thread.ts';
import { ensureTags } from './tag-rows.ts';

/** A list of ids bound as one JSON parameter. */
const IN_IDS = 'IN (SELECT value FROM json_each(?))';

const bookmarkIdsOf = (links: readonly Link[]): string => JSON.stringify(links.map((l) => l.bookmark_id));
const seqsOf = (links: readonly Link[]): string => JSON.stringify(links.map((l) => l.seq));

/**
 * Moves updatedAt of the bookmarks of each slice of links, each bookmark once per operation:
 * renaming or deleting a subtree meets a bookmark once for each of its tags in it.
 */
function toucher(statement: Statement<[number, string]>, now: number): (links: readonly Link[]) => void {
  const fresh = firstMeetings();
  return (links) => {
    const ids = fresh(links);
    if (ids.length > 0) statement.run(now, JSON.stringify(ids));
  };
}

export class SqliteTags implements TagsStore {
  private q;
  private lookups: TagLookups;
  private renames: RenameThread;

  constructor(private db: Db) {
    this.lookups = new TagLookups(db);
    this.renames = new RenameThread(dirname(db.name));
    this.q = {
      all: db.prepare<[string], TagObjectRow>(`SELECT ${TAG_COLUMNS} FROM tags t WHERE t.user_id = ? ORDER BY t.name_key`),
      object: db.prepare<[string, string], TagObjectRow>(`SELECT ${TAG_COLUMNS} FROM tags t WHERE t.user_id = ? AND t.id = ?`),
      hasChild: db.prepare<[string], number>('SELECT 1 FROM tags WHERE parent_id = ? LIMIT 1'),
      touchBookmarks: db.prepare(
        `UPDATE bookmarks SET updated_at = ? WHERE id IN (SELECT bookmark_id FROM bookmark_tags WHERE tag_id ${IN_IDS})`,
      ),
      touch: db.prepare<[number, string]>(`UPDATE bookmarks SET updated_at = ? WHERE id ${IN_IDS}`),
      unlink: db.prepare<[string]>(`DELETE FROM bookmark_tags WHERE seq ${IN_IDS}`),
      // json_each keeps the array's order, which is the source's link order: the target's memberships keep it.
      linkAll: db.prepare<[string, string]>(
        `INSERT INTO bookmark_tags (bookmark_id, tag_id) SELECT value, ? FROM json_each(?) ORDER BY key
         ON CONFLICT (bookmark_id, tag_id) DO NOTHING`,
      ),
      links: db.prepare<[string], Link>('SELECT seq, bookmark_id FROM bookmark_tags WHERE tag_id = ? ORDER BY seq'),
      deleteTags: db.prepare(`DELETE FROM tags WHERE id ${IN_IDS}`),
    };
    this.q.hasChild.pluck();
  }

  async list(userId: string): Promise<Tag[]> {
    return this.q.all.all(userId).map(toTag);
  }

  async create(userId: string, input: { name: string; color?: string | undefined }, now: number): Promise<Tag> {
    const id = this.db.transaction((): string => {
      const existing = this.lookups.byKey(userId, tagKey(input.name));
      if (existing) throw tagExists(existing);
      const [created] = ensureTags(this.db, userId, [input.name], now) as [string];
      if (input.color !== undefined) this.db.prepare('UPDATE tags SET color = ? WHERE id = ?').run(input.color, created);
      return created;
    })();
    return this.object(userId, id)!;
  }

  /**
   * The names change in one transaction on the rename thread (tag-rename-thread.ts); the
   * bookmarks carrying the tags, which may be any number, get their updatedAt moved afterwards,
   * in slices.
   */
  async rename(userId: string, id: string, newName: string, now: number): Promise<Tag> {
    const members = await this.renames.rename(userId, id, newName, now);
    await forEachLinkChunk(this.db, members, toucher(this.q.touch, now));
    const renamed = this.object(userId, id);
    if (renamed === null) throw notFound('tag', id);
    return renamed;
  }

  /** Stops the rename thread; the connection is the caller's to close. */
  close(): Promise<void> {
    return this.renames.close();
  }

  /**
   * In slices, as a tag may carry any number of bookmarks: the links go first, then the tags,
   * deepest first; the tag itself goes last, with any descendant or link made meanwhile.
   * Stopped half-way (a crash), what is left is a smaller subtree with all its ancestors, and
   * the DELETE can be sent again.
   */
  async remove(userId: string, id: string, now: number): Promise<TagDeletedResult> {
    const members = this.lookups.withDescendants(userId, this.lookups.tag(userId, id));
    const touch = toucher(this.q.touch, now);
    await forEachLinkChunk(
      this.db,
      members.map((m) => m.id),
      (links) => {
        touch(links);
        this.q.unlink.run(seqsOf(links));
      },
    );
    let tags = 0;
    const deleteTags = (ids: readonly string[]) => {
      const json = JSON.stringify(ids);
      this.q.touchBookmarks.run(now, json);
      // Links made while the slices ran go with their tags (ON DELETE CASCADE).
      tags += this.q.deleteTags.run(json).changes;
    };
    await forEachChunk(this.db, deepestFirst(members.slice(1)), deleteTags);
    this.db.transaction(() => deleteTags(deepestFirst(this.lookups.withDescendants(userId, this.lookups.tag(userId, id)))))();
    return { id, deleted: true, tags };
  }

  /**
   * The source's links move to the target in slices, each checking again that both tags are
   * there and the source has no child; the source goes with the last slice. Stopped half-way,
   * the merge can be sent again and moves the rest (`moved` then counts the rest).
   */
  async merge(userId: string, sourceId: string, targetId: string, now: number): Promise<MergeResult> {
    if (sourceId === targetId) throw mergeIntoItself();
    const check = () => {
      const source = this.lookups.tag(userId, sourceId);
      this.lookups.tag(userId, targetId);
      if (this.q.hasChild.get(sourceId) !== undefined) throw mergeOfParent(source);
    };
    let moved = 0;
    const move = (links: Link[]) => {
      check();
      this.q.touch.run(now, bookmarkIdsOf(links));
      this.q.linkAll.run(targetId, bookmarkIdsOf(links));
      this.q.unlink.run(seqsOf(links));
      moved += links.length;
    };
    check();
    await forEachLinkChunk(this.db, [sourceId], move);
    this.db.transaction(() => {
      move(this.q.links.all(sourceId));
      this.q.deleteTags.run(JSON.stringify([sourceId]));
    })();
    return { target: this.object(userId, targetId)!, moved };
  }

  async bookmarksById(userId: string, id: string, limit: number): Promise<TagBookmarks> {
    return this.tagBookmarks(userId, this.object(userId, id), limit);
  }

  async bookmarksByName(userId: string, name: string, limit: number): Promise<TagBookmarks> {
    // A name that could not be a tag's (say "a//b") names no tag: the same answer as an unknown one.
    const parsed = TagName.safeParse(name);
    const row = parsed.success ? this.lookups.byKey(userId, tagKey(parsed.data)) : undefined;
    return this.tagBookmarks(userId, row ? this.object(userId, row.id) : null, limit);
  }

  private tagBookmarks(userId: string, tag: Tag | null, limit: number): TagBookmarks {
    if (tag === null) return { bookmarks: [], tag: null };
    const rows = this.db
      .prepare<[string, string, number], BookmarkRow>(
        `SELECT ${BOOKMARK_COLUMNS} FROM bookmark_tags bt JOIN bookmarks b ON b.id = bt.bookmark_id
         WHERE bt.tag_id = ? AND b.user_id = ? AND b.deleted_at IS NULL
         ORDER BY b.created_at DESC, b.seq DESC LIMIT ?`,
      )
      .all(tag.id, userId, limit);
    return { bookmarks: rows.map(toBookmark), tag };
  }

  private object(userId: string, id: string): Tag | null {
    const row = this.q.object.get(userId, id);
    return row ? toTag(row) : null;
  }
}
