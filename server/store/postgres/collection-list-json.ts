import type { Pg } from '../../db/postgres/pg.ts';

/**
 * The last millisecond `iso` writes as `YYYY-MM-DDTHH:MM:SS.mmmZ` (31 December 9999; later ones it
 * writes otherwise). A list with a date after it, or before 1970 (whose milliseconds the statement's
 * integer arithmetic would get wrong), is built in JavaScript instead.
 */
const LAST_PLAIN_ISO_MS = 253_402_300_799_999;

/**
 * A user's active collections as GET /collections sends them, built by PostgreSQL in one statement
 * (one snapshot): the depths by walking the tree down from its roots, then each collection as the
 * text JSON.stringify(toCollection(row, depth)) makes (collection-rows.ts): row_to_json writes the
 * columns in their order under their names, compactly, and escapes a text exactly as JSON.stringify
 * does; integers and booleans print alike, and the date is `iso`'s format, its milliseconds taken as
 * integers. They are joined in byTreeOrder's order (depth, parent, order, creation; ids are `col_` and
 * lowercase hex, where byte order and localeCompare agree; then the order made, as the stable sort keeps it).
 * A root is a collection without a parent or whose parent is not the user's, where
 * CollectionTree.depth's walk up ends too. `placed` and `active` differ only if a cycle keeps some
 * collections from every root, and `plain` is false for a date `iso` writes otherwise: the caller
 * then builds the list as before. `snapshot` is the statement's, the one the list is exact at.
 */
const LIST_JSON_SQL = `WITH RECURSIVE mine AS MATERIALIZED (
    SELECT seq, id, name, icon, color, parent_id, sort_order, notes, share_slug, is_shared, created_at, deleted_at, active_count
    FROM collections WHERE user_id = $1
  ),
  placed(id, depth) AS (
    SELECT m.id, 0 FROM mine m WHERE m.parent_id IS NULL OR NOT EXISTS (SELECT 1 FROM mine up WHERE up.id = m.parent_id)
    UNION ALL
    SELECT c.id, p.depth + 1 FROM placed p JOIN collections c ON c.parent_id = p.id AND c.user_id = $1
  )
  SELECT pg_current_snapshot()::text AS snapshot, (SELECT COUNT(*) FROM mine WHERE deleted_at IS NULL) AS active, COUNT(*) AS placed,
    COALESCE(bool_and(m.created_at BETWEEN 0 AND ${LAST_PLAIN_ISO_MS}), true) AS plain,
    '[' || COALESCE(string_agg(row_to_json(c)::text, ',' ORDER BY p.depth, m.parent_id NULLS FIRST, m.sort_order, m.created_at, m.seq), '') || ']' AS json
  FROM placed p JOIN mine m ON m.id = p.id
  CROSS JOIN LATERAL (
    SELECT m.id, m.name, m.icon, m.color, m.parent_id AS "parentId", p.depth, m.sort_order AS "order",
      m.active_count AS "bookmarkCount", m.notes, NULL AS branding, m.share_slug AS "shareSlug", m.is_shared = 1 AS "isShared",
      to_char(to_timestamp(m.created_at / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '.'
        || lpad((m.created_at % 1000)::text, 3, '0') || 'Z' AS "createdAt",
      NULL AS "deletedAt"
  ) c
  WHERE m.deleted_at IS NULL`;

/**
 * The user's list as UTF-8 JSON, made by the database so that the event loop only receives it
 * (a list at the cap, mapped, sorted and stringified here, held every other user's requests for
 * a quarter of a second), and the snapshot it is exact at; null when the data is outside what the
 * statement writes exactly.
 */
export async function collectionListJson(db: Pg, userId: string): Promise<{ json: Buffer; snapshot: string } | null> {
  const row = await db.get<{ snapshot: string; active: number; placed: number; plain: boolean; json: string }>(LIST_JSON_SQL, [userId]);
  if (!row || row.placed !== row.active || !row.plain) return null;
  return { json: Buffer.from(row.json), snapshot: row.snapshot };
}
