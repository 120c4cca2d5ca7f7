import type { Sql } from '../../db/postgres/pg.ts';
import type { ExportBookmarkRow, ExportCollectionRow, ExportPageOptions } from '../jobs.ts';
import { type ExportPageRow, toExportRow } from '../shared/export-rows.ts';

/**
 * The user's active bookmarks after the keyset cursor, oldest first: a range of bookmarks_newest,
 * or with collections, of bookmarks_collection (`= ANY` over a few ids, which PostgreSQL reads as
 * one range per id and merges).
 */
const PAGE = (inCollections: boolean): string =>
  `SELECT b.seq, b.url, b.title, b.description, b.note, b.type, b.is_favorite, b.collection_id, b.created_at,
     COALESCE((SELECT json_agg(t.name ORDER BY t.name_key)::text FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id
       WHERE bt.bookmark_id = b.id), '[]') AS tag_names
   FROM bookmarks b
   WHERE b.user_id = $1 AND b.deleted_at IS NULL AND (b.created_at, b.seq) > ($2, $3)
     ${inCollections ? 'AND b.collection_id = ANY($5::text[])' : ''}
   ORDER BY b.created_at, b.seq LIMIT $4`;

export async function exportCollections(db: Sql, userId: string): Promise<ExportCollectionRow[]> {
  return db.all<ExportCollectionRow>(
    `SELECT id, parent_id AS "parentId", name, icon, color, notes FROM collections
     WHERE user_id = $1 AND deleted_at IS NULL ORDER BY sort_order, seq`,
    [userId],
  );
}

/** See JobsStore.exportPages: each page its own statement, so no transaction or connection is held between pages. */
export async function* exportPages(db: Sql, userId: string, { pageSize, collectionIds }: ExportPageOptions): AsyncGenerator<ExportBookmarkRow[]> {
  if (collectionIds?.length === 0) return;
  const text = PAGE(collectionIds !== undefined);
  for (let cursor = { createdAt: Number.MIN_SAFE_INTEGER, seq: -1 }; ; ) {
    const params = [userId, cursor.createdAt, cursor.seq, pageSize, ...(collectionIds === undefined ? [] : [collectionIds])];
    const rows = await db.all<ExportPageRow>(text, params);
    if (rows.length > 0) yield rows.map(toExportRow);
    const last = rows.at(-1);
    if (last === undefined || rows.length < pageSize) return;
    cursor = { createdAt: last.created_at, seq: last.seq };
  }
}
