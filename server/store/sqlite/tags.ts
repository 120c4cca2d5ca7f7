import { TagName } from '../../../lib/api/bookmarks.ts';
import type { Tag } from '../../../lib/api/tags.ts';
import type { Db } from '../../db/database.ts';
import { conflict, invalid, notFound } from '../../http/api-error.ts';
import type { MergeResult, TagBookmarks, TagDeletedResult, TagsStore } from '../tags.ts';
import { BOOKMARK_COLUMNS, type BookmarkRow, toBookmark } from './bookmark-rows.ts';
import { TAG_COLUMNS, type TagRow as TagObjectRow, toTag } from './tag-objects.ts';
import { ensureTags, tagKey } from './tag-rows.ts';

interface TagRow {
  id: string;
  name: string;
  name_key: string;
}

/** The longest tag name TagName accepts; a rename must not push a descendant past it. */
const MAX_TAG_NAME = 200;

/** A list of ids bound as one JSON parameter. */
const IN_IDS = 'IN (SELECT value FROM json_each(?))';

const parentName = (name: string): string | null => (name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : null);

export class SqliteTags implements TagsStore {
  private q;

  constructor(private db: Db) {
    this.q = {
      all: db.prepare<[string], TagObjectRow>(`SELECT ${TAG_COLUMNS} FROM tags t WHERE t.user_id = ? ORDER BY t.name_key`),
      object: db.prepare<[string, string], TagObjectRow>(`SELECT ${TAG_COLUMNS} FROM tags t WHERE t.user_id = ? AND t.id = ?`),
      byId: db.prepare<[string, string], TagRow>('SELECT id, name, name_key FROM tags WHERE user_id = ? AND id = ?'),
      byKey: db.prepare<[string, string], TagRow>('SELECT id, name, name_key FROM tags WHERE user_id = ? AND name_key = ?'),
      // substr/length rather than LIKE: names may hold % and _.
      descendants: db.prepare<[string, string, string], TagRow>(
        'SELECT id, name, name_key FROM tags WHERE user_id = ? AND substr(name_key, 1, length(?)) = ?',
      ),
      hasChild: db.prepare<[string], number>('SELECT 1 FROM tags WHERE parent_id = ? LIMIT 1'),
      touchBookmarks: db.prepare(
        `UPDATE bookmarks SET updated_at = ? WHERE id IN (SELECT bookmark_id FROM bookmark_tags WHERE tag_id ${IN_IDS})`,
      ),
      deleteTags: db.prepare(`DELETE FROM tags WHERE id ${IN_IDS}`),
    };
    this.q.hasChild.pluck();
  }

  async list(userId: string): Promise<Tag[]> {
    return this.q.all.all(userId).map(toTag);
  }

  async create(userId: string, input: { name: string; color?: string | undefined }, now: number): Promise<Tag> {
    const id = this.db.transaction((): string => {
      const existing = this.q.byKey.get(userId, tagKey(input.name));
      if (existing) throw conflict(`a tag named "${existing.name}" already exists (${existing.id})`);
      const [created] = ensureTags(this.db, userId, [input.name], now) as [string];
      if (input.color !== undefined) this.db.prepare('UPDATE tags SET color = ? WHERE id = ?').run(input.color, created);
      return created;
    })();
    return this.object(userId, id)!;
  }

  async rename(userId: string, id: string, newName: string, now: number): Promise<Tag> {
    this.db.transaction(() => {
      const tag = this.tag(userId, id);
      if (tagKey(newName).startsWith(`${tag.name_key}/`)) {
        throw invalid('newName', 'a tag cannot move under itself; choose a name outside its own subtree');
      }
      const members = this.withDescendants(userId, tag);
      const memberIds = new Set(members.map((m) => m.id));
      const levels = tag.name.split('/').length;
      const renamed = members.map((m) => ({ id: m.id, name: [newName, ...m.name.split('/').slice(levels)].join('/') }));
      for (const { name } of renamed) {
        if (name.length > MAX_TAG_NAME) throw invalid('newName', `would make the tag name "${name}" longer than ${MAX_TAG_NAME} characters`);
        const taken = this.q.byKey.get(userId, tagKey(name));
        if (taken && !memberIds.has(taken.id)) {
          throw conflict(`a tag named "${taken.name}" already exists; merge the tags (POST /tags/merge) instead of renaming`);
        }
      }
      const parent = parentName(newName);
      const parentId = parent === null ? null : ensureTags(this.db, userId, [parent], now)[0]!;
      const update = this.db.prepare('UPDATE tags SET name = ?, name_key = ? WHERE id = ?');
      for (const m of renamed) update.run(m.name, tagKey(m.name), m.id);
      this.db.prepare('UPDATE tags SET parent_id = ? WHERE id = ?').run(parentId, id);
      this.q.touchBookmarks.run(now, JSON.stringify([...memberIds]));
    })();
    return this.object(userId, id)!;
  }

  async remove(userId: string, id: string, now: number): Promise<TagDeletedResult> {
    return this.db.transaction((): TagDeletedResult => {
      const ids = JSON.stringify(this.withDescendants(userId, this.tag(userId, id)).map((m) => m.id));
      this.q.touchBookmarks.run(now, ids);
      // bookmark_tags rows go with their tags (ON DELETE CASCADE).
      const tags = this.q.deleteTags.run(ids).changes;
      return { id, deleted: true, tags };
    })();
  }

  async merge(userId: string, sourceId: string, targetId: string, now: number): Promise<MergeResult> {
    if (sourceId === targetId) throw invalid('targetTagId', 'must be another tag than sourceTagId');
    const moved = this.db.transaction((): number => {
      const source = this.tag(userId, sourceId);
      this.tag(userId, targetId);
      if (this.q.hasChild.get(sourceId) !== undefined) {
        throw conflict(`only a tag without children can be merged; "${source.name}" has child tags (merge or delete those first)`);
      }
      const carried = this.db.prepare<[string], number>('SELECT COUNT(*) FROM bookmark_tags WHERE tag_id = ?').pluck().get(sourceId)!;
      this.q.touchBookmarks.run(now, JSON.stringify([sourceId]));
      this.db
        .prepare(
          `INSERT INTO bookmark_tags (bookmark_id, tag_id) SELECT bookmark_id, ? FROM bookmark_tags WHERE tag_id = ? ORDER BY seq
           ON CONFLICT (bookmark_id, tag_id) DO NOTHING`,
        )
        .run(targetId, sourceId);
      this.q.deleteTags.run(JSON.stringify([sourceId]));
      return carried;
    })();
    return { target: this.object(userId, targetId)!, moved };
  }

  async bookmarksById(userId: string, id: string, limit: number): Promise<TagBookmarks> {
    return this.tagBookmarks(userId, this.object(userId, id), limit);
  }

  async bookmarksByName(userId: string, name: string, limit: number): Promise<TagBookmarks> {
    // A name that could not be a tag's (say "a//b") names no tag: the same answer as an unknown one.
    const parsed = TagName.safeParse(name);
    const row = parsed.success ? this.q.byKey.get(userId, tagKey(parsed.data)) : undefined;
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

  private tag(userId: string, id: string): TagRow {
    const row = this.q.byId.get(userId, id);
    if (!row) throw notFound('tag', id);
    return row;
  }

  /** The tag and every tag whose name lies under it. */
  private withDescendants(userId: string, tag: TagRow): TagRow[] {
    const prefix = `${tag.name_key}/`;
    return [tag, ...this.q.descendants.all(userId, prefix, prefix)];
  }
}
