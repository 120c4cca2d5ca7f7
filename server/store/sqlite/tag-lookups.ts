import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/api-error.ts';
import type { SubtreeTag } from '../shared/tag-tree.ts';

/** The look-ups of one user's tags that the subtree operations make, on one connection. */
export class TagLookups {
  private q;

  constructor(db: Db) {
    this.q = {
      byId: db.prepare<[string, string], SubtreeTag>('SELECT id, name, name_key FROM tags WHERE user_id = ? AND id = ?'),
      byKey: db.prepare<[string, string], SubtreeTag>('SELECT id, name, name_key FROM tags WHERE user_id = ? AND name_key = ?'),
      // substr/length rather than LIKE: names may hold % and _.
      descendants: db.prepare<[string, string, string], SubtreeTag>(
        'SELECT id, name, name_key FROM tags WHERE user_id = ? AND substr(name_key, 1, length(?)) = ?',
      ),
    };
  }

  /** The user's tag, or NOT_FOUND. */
  tag(userId: string, id: string): SubtreeTag {
    const row = this.q.byId.get(userId, id);
    if (!row) throw notFound('tag', id);
    return row;
  }

  byKey(userId: string, key: string): SubtreeTag | undefined {
    return this.q.byKey.get(userId, key);
  }

  /** The tag and every tag whose name lies under it. */
  withDescendants(userId: string, tag: SubtreeTag): SubtreeTag[] {
    const prefix = `${tag.name_key}/`;
    return [tag, ...this.q.descendants.all(userId, prefix, prefix)];
  }
}
