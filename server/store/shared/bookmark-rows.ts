import type { Bookmark, BookmarkType, DuplicateBookmark } from '../../../lib/api/bookmarks.ts';
import { iso } from '../../clock.ts';

/**
 * A bookmark as every backend's BOOKMARK_COLUMNS reads it (server/store/sqlite/bookmark-rows.ts,
 * server/store/postgres/bookmark-rows.ts): the columns plus the tag names, ordered by name key,
 * as a JSON array text.
 */
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

/** The columns a duplicate group's member is made of: each backend's DUPLICATE_COLUMNS reads them. */
export type DuplicateRow = Pick<BookmarkRow, 'id' | 'url' | 'title' | 'description' | 'note' | 'is_favorite' | 'collection_id' | 'cover_image' | 'created_at' | 'updated_at' | 'tag_names'>;

/** A member of a duplicate group: the few fields GET /bookmarks/duplicates answers (lib/api/bookmarks.ts, DuplicateBookmark). */
export function toDuplicateBookmark(r: DuplicateRow): DuplicateBookmark {
  return {
    id: r.id,
    url: r.url,
    title: r.title,
    note: r.note,
    tags: JSON.parse(r.tag_names) as string[],
    collectionId: r.collection_id,
    isFavorite: r.is_favorite === 1,
    hasDescription: r.description.trim() !== '',
    hasCover: r.cover_image !== null,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}
