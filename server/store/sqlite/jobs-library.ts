import type { BookmarkType } from '../../../lib/api/bookmarks.ts';
import type { Db } from '../../db/database.ts';
import type { InterchangeCollection } from '../../interchange/types.ts';
import type { Library } from '../jobs.ts';
import type { BookmarkRow } from '../shared/bookmark-rows.ts';
import { BOOKMARK_COLUMNS } from './bookmark-rows.ts';

interface CollectionRow {
  id: string;
  parent_id: string | null;
  name: string;
  icon: string;
  color: string;
  notes: string;
}

/**
 * The user's library as an export writes it, read in one transaction so that the
 * collections and bookmarks agree: active collections in tree order (parents first,
 * siblings in their order), active bookmarks oldest first, each with its folder path.
 * Deferred: it only reads, and must not hold other instances' writes back meanwhile.
 */
export function readLibrary(db: Db, userId: string): Library {
  return db.transaction((): Library => {
    const collectionRows = db
      .prepare<[string], CollectionRow>(
        'SELECT id, parent_id, name, icon, color, notes FROM collections WHERE user_id = ? AND deleted_at IS NULL ORDER BY sort_order, seq',
      )
      .all(userId);
    const { collections, paths } = walkCollections(collectionRows);
    const bookmarks = db
      .prepare<[string], BookmarkRow>(
        `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.user_id = ? AND b.deleted_at IS NULL ORDER BY b.created_at, b.seq`,
      )
      .all(userId)
      .map((r) => ({
        url: r.url,
        title: r.title,
        description: r.description,
        note: r.note,
        type: r.type as BookmarkType,
        isFavorite: r.is_favorite === 1,
        tags: JSON.parse(r.tag_names) as string[],
        // A bookmark whose collection is not active is shown Unsorted by the API too.
        collectionPath: (r.collection_id !== null && paths.get(r.collection_id)) || [],
        createdAt: r.created_at,
      }));
    return { collections, bookmarks };
  }).deferred();
}

/** Depth first from the roots; a collection whose parent is not active counts as a root. */
function walkCollections(rows: readonly CollectionRow[]): { collections: InterchangeCollection[]; paths: Map<string, string[]> } {
  const active = new Set(rows.map((r) => r.id));
  const children = new Map<string | null, CollectionRow[]>();
  for (const row of rows) {
    const parent = row.parent_id !== null && active.has(row.parent_id) ? row.parent_id : null;
    const siblings = children.get(parent);
    if (siblings) siblings.push(row);
    else children.set(parent, [row]);
  }
  const collections: InterchangeCollection[] = [];
  const paths = new Map<string, string[]>();
  const visit = (parent: string | null, prefix: string[]): void => {
    for (const row of children.get(parent) ?? []) {
      if (paths.has(row.id)) continue;
      const path = [...prefix, row.name];
      paths.set(row.id, path);
      collections.push({ path, icon: row.icon, color: row.color, notes: row.notes });
      visit(row.id, path);
    }
  };
  visit(null, []);
  return { collections, paths };
}
