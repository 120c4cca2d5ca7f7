import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../../db/database.ts';
import type { ExportBookmarkRow, ExportCollectionRow, ExportPageOptions } from '../jobs.ts';
import { type ExportPageRow, toExportRow } from '../shared/export-rows.ts';

const PAGE_COLUMNS = `b.seq, b.url, b.title, b.description, b.note, b.type, b.is_favorite, b.collection_id, b.created_at,
  (SELECT json_group_array(t.name) FROM (SELECT t.name FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id
     WHERE bt.bookmark_id = b.id ORDER BY t.name_key) t) AS tag_names`;

/** The user's active bookmarks after the cursor, oldest first: a range of bookmarks_newest, or of bookmarks_collection with a collection. */
const pageOf = (collection: string): string =>
  `SELECT ${PAGE_COLUMNS} FROM bookmarks b WHERE ${collection} b.user_id = @userId AND b.deleted_at IS NULL
     AND (b.created_at, b.seq) > (@createdAt, @seq) ORDER BY b.created_at, b.seq LIMIT @limit`;

/** Several collections: SQLite merges their ordered ranges (each at most a page), so that no page reads more than it must. */
const pageOfCollections = (count: number): string =>
  Array.from({ length: count }, (_, i) => `SELECT * FROM (${pageOf(`b.collection_id = @id${i} AND`)})`).join(' UNION ALL ') +
  ' ORDER BY created_at, seq LIMIT @limit';

/** Before the first row of any library. */
const START = { createdAt: Number.MIN_SAFE_INTEGER, seq: -1 };

export function exportCollections(db: Db, userId: string): ExportCollectionRow[] {
  return db
    .prepare<[string], ExportCollectionRow>(
      `SELECT id, parent_id AS parentId, name, icon, color, notes FROM collections
       WHERE user_id = ? AND deleted_at IS NULL ORDER BY sort_order, seq`,
    )
    .all(userId);
}

/** See JobsStore.exportPages. */
export async function* exportPages(db: Db, userId: string, { pageSize, collectionIds }: ExportPageOptions): AsyncGenerator<ExportBookmarkRow[]> {
  if (collectionIds?.length === 0) return;
  const page = db.prepare<[Record<string, string | number>], ExportPageRow>(
    collectionIds === undefined ? pageOf('') : pageOfCollections(collectionIds.length),
  );
  const ids = Object.fromEntries((collectionIds ?? []).map((id, i) => [`id${i}`, id]));
  for (let cursor = START; ; ) {
    const rows = page.all({ ...ids, userId, limit: pageSize, ...cursor });
    if (rows.length > 0) yield rows.map(toExportRow);
    const last = rows.at(-1);
    if (last === undefined || rows.length < pageSize) return;
    cursor = { createdAt: last.created_at, seq: last.seq };
    await nextTurn();
  }
}
