import type { Sql } from '../../db/postgres/pg.ts';

/**
 * The last millisecond `iso` writes as `YYYY-MM-DDTHH:MM:SS.mmmZ` (31 December 9999); later ones, and
 * those before 1970, it writes otherwise, so such a list is built in JavaScript instead.
 */
const LAST_PLAIN_ISO_MS = 253_402_300_799_999;

/**
 * A collection of `m` at depth `p.depth` as the text JSON.stringify(toCollection(row, depth)) makes,
 * key for key (collection-rows.ts): to_json of a text escapes exactly the characters JSON.stringify
 * escapes, integers print alike, and the date is `iso`'s format, its milliseconds taken as integers.
 */
const COLLECTION_JSON = `'{"id":' || to_json(m.id) || ',"name":' || to_json(m.name) || ',"icon":' || to_json(m.icon)
  || ',"color":' || to_json(m.color) || ',"parentId":' || COALESCE(to_json(m.parent_id)::text, 'null')
  || ',"depth":' || p.depth || ',"order":' || m.sort_order || ',"bookmarkCount":' || m.active_count
  || ',"notes":' || to_json(m.notes) || ',"branding":null,"shareSlug":' || to_json(m.share_slug)
  || ',"isShared":' || CASE WHEN m.is_shared = 1 THEN 'true' ELSE 'false' END
  || ',"createdAt":"' || to_char(to_timestamp(m.created_at / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')
  || '.' || lpad((m.created_at % 1000)::text, 3, '0') || 'Z","deletedAt":null}'`;

/**
 * A user's active collections as GET /collections sends them, built by PostgreSQL in one statement
 * (one snapshot): the depths by walking the tree down from its roots, then each collection's JSON,
 * joined in byTreeOrder's order (depth, parent, order, creation; ids are ASCII, where byte order and
 * localeCompare agree; then the order made, as the stable sort keeps it). A root is a collection
 * without a parent or whose parent is not the user's, where CollectionTree.depth's walk up ends too.
 * `placed` and `active` differ only if a cycle keeps some collections from every root, and `plain`
 * is false for a date `iso` writes otherwise: the caller then builds the list as before.
 */
const LIST_JSON_SQL = `WITH RECURSIVE mine AS MATERIALIZED (
    SELECT seq, id, name, icon, color, parent_id, sort_order, notes, share_slug, is_shared, created_at, deleted_at, active_count
    FROM collections WHERE user_id = $1
  ),
  placed(id, depth) AS (
    SELECT m.id, 0 FROM mine m WHERE m.parent_id IS NULL OR NOT EXISTS (SELECT 1 FROM mine up WHERE up.id = m.parent_id)
    UNION ALL
    SELECT m.id, p.depth + 1 FROM placed p JOIN mine m ON m.parent_id = p.id
  )
  SELECT (SELECT COUNT(*) FROM mine WHERE deleted_at IS NULL) AS active, COUNT(*) AS placed,
    COALESCE(bool_and(m.created_at BETWEEN 0 AND ${LAST_PLAIN_ISO_MS}), true) AS plain,
    '[' || COALESCE(string_agg(${COLLECTION_JSON}, ',' ORDER BY p.depth, m.parent_id NULLS FIRST, m.sort_order, m.created_at, m.seq), '') || ']' AS json
  FROM placed p JOIN mine m ON m.id = p.id
  WHERE m.deleted_at IS NULL`;

/**
 * The user's list as UTF-8 JSON, made by the database so that the event loop only receives it
 * (a list at the cap, mapped, sorted and stringified here, held every other user's requests for
 * a quarter of a second); null when the data is outside what the statement writes exactly.
 */
export async function collectionListJson(sql: Sql, userId: string): Promise<Buffer | null> {
  const row = await sql.get<{ active: number; placed: number; plain: boolean; json: string }>(LIST_JSON_SQL, [userId]);
  if (!row || row.placed !== row.active || !row.plain) return null;
  return Buffer.from(row.json);
}
