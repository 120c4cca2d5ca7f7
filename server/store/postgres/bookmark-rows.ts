/**
 * How every PostgreSQL query reads bookmarks: the columns plus the bookmark's tag names in one
 * correlated subquery (a JSON array text, as SQLite's json_group_array gives), so that a page of
 * 50 costs one statement and both backends map rows with the same toBookmark
 * (server/store/shared/bookmark-rows.ts). Use as `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE ...`.
 */
const TAG_NAMES = `COALESCE((SELECT json_agg(t.name ORDER BY t.name_key)::text FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id
     WHERE bt.bookmark_id = b.id), '[]') AS tag_names`;
export const BOOKMARK_COLUMNS = `b.seq, b.id, b.url, b.title, b.description, b.excerpt, b.note, b.type, b.is_favorite,
  b.collection_id, b.domain, b.favicon, b.cover_image, b.click_count, b.metadata_status, b.link_status,
  b.last_checked_at, b.http_status_code, b.created_at, b.updated_at, b.deleted_at,
  ${TAG_NAMES}`;
/** What a duplicate group's member needs (DuplicateRow), as server/store/sqlite/bookmark-rows.ts reads it. */
export const DUPLICATE_COLUMNS = `b.id, b.url, b.title, b.description, b.note, b.is_favorite, b.collection_id, b.cover_image, b.created_at, b.updated_at,
  ${TAG_NAMES}`;
