import type { Tag } from '../../../lib/api/tags.ts';
import { iso } from '../../clock.ts';

/**
 * How every query reads tags into API objects. `count` (active bookmarks carrying the tag)
 * is kept by triggers (migration 010), so reading a tag never scans its bookmarks.
 * Use as `SELECT ${TAG_COLUMNS} FROM tags t WHERE ...`.
 */
export const TAG_COLUMNS = 't.id, t.name, t.color, t.parent_id, t.created_at, t.active_count AS count';

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
