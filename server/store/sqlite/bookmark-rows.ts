import type { Bookmark, BookmarkType } from '../../../lib/api/bookmarks.ts';
import { iso } from '../../clock.ts';

/**
 * How every query reads bookmarks: the columns plus the bookmark's tag names in
 * one correlated subquery, so that a page of 50 costs one statement.
 * Use as `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE ...`.
 */
export const BOOKMARK_COLUMNS = `b.seq, b.id, b.url, b.title, b.description, b.excerpt, b.note, b.type, b.is_favorite,
  b.collection_id, b.domain, b.favicon, b.cover_image, b.click_count, b.metadata_status, b.link_status,
  b.last_checked_at, b.http_status_code, b.created_at, b.updated_at, b.deleted_at,
  (SELECT json_group_array(t.name) FROM (SELECT t.name FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id
     WHERE bt.bookmark_id = b.id ORDER BY t.name_key) t) AS tag_names`;

export interface BookmarkRow {
  seq: number;
  id: string;
  url: string;
  title: string;
  description: string;
  excerpt: string;
  note: string;
  type: string;
  is_favorite: number;
  collection_id: string | null;
  domain: string;
  favicon: string;
  cover_image: string | null;
  click_count: number;
  metadata_status: string;
  link_status: string;
  last_checked_at: number;
  http_status_code: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  tag_names: string;
}

export function toBookmark(r: BookmarkRow): Bookmark {
  return {
    id: r.id,
    url: r.url,
    title: r.title,
    description: r.description,
    excerpt: r.excerpt,
    note: r.note,
    type: r.type as BookmarkType,
    isFavorite: r.is_favorite === 1,
    tags: JSON.parse(r.tag_names) as string[],
    collectionId: r.collection_id,
    domain: r.domain,
    favicon: r.favicon,
    coverImage: r.cover_image,
    clickCount: r.click_count,
    metadataStatus: r.metadata_status,
    linkStatus: r.link_status,
    lastCheckedAt: iso(r.last_checked_at),
    httpStatusCode: r.http_status_code,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    deletedAt: r.deleted_at === null ? null : iso(r.deleted_at),
  };
}
