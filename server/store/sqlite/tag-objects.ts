import type { Tag } from '../../../lib/api/tags.ts';
import { iso } from '../../clock.ts';

/**
 * How every query reads tags into API objects: the columns plus `count`, the
 * number of active (not trashed) bookmarks carrying the tag, so that a list of
 * tags costs one statement. Use as `SELECT ${TAG_COLUMNS} FROM tags t WHERE ...`.
 */
export const TAG_COLUMNS = `t.id, t.name, t.color, t.parent_id, t.created_at,
  (SELECT COUNT(*) FROM bookmark_tags tc_link JOIN bookmarks tc_b ON tc_b.id = tc_link.bookmark_id
     WHERE tc_link.tag_id = t.id AND tc_b.deleted_at IS NULL) AS count`;

export interface TagRow {
  id: string;
  name: string;
  color: string | null;
  parent_id: string | null;
  created_at: number;
  count: number;
}

export const toTag = (r: TagRow): Tag => ({
  id: r.id,
  name: r.name,
  color: r.color,
  parentId: r.parent_id,
  count: r.count,
  createdAt: iso(r.created_at),
});
