import { collectionTree, pathKey, walkTree } from '../interchange/collections.ts';
import type { ExportSource, InterchangeBookmark, InterchangeCollection } from '../interchange/types.ts';
import type { ExportBookmarkRow, ExportCollectionRow, JobsStore } from '../store/jobs.ts';

/** Bookmarks read at once: a page is one short query and at most a few hundred kB of the file. */
export const EXPORT_PAGE = 1000;

/**
 * The user's library as the export writes it: active collections in tree order, active
 * bookmarks oldest first, read from the store a page at a time, each with its folder path.
 * `onPage` hears the size of each page of bookmarks read (for progress).
 */
export async function storeSource(
  jobs: JobsStore,
  userId: string,
  exportedAt: number,
  onPage: (bookmarks: number) => Promise<void>,
  pageSize = EXPORT_PAGE,
): Promise<ExportSource> {
  const { collections, paths } = walkCollections(await jobs.exportCollections(userId));
  // Sibling collections of the same name are one folder in the file, as they are one path.
  const idsByPath = new Map<string, string[]>();
  for (const [id, path] of paths) {
    const ids = idsByPath.get(pathKey(path));
    if (ids === undefined) idsByPath.set(pathKey(path), [id]);
    else ids.push(id);
  }
  // A bookmark whose collection is not active is shown Unsorted by the API too.
  const toBookmark = ({ collectionId, ...row }: ExportBookmarkRow): InterchangeBookmark => ({
    ...row,
    collectionPath: (collectionId !== null && paths.get(collectionId)) || [],
  });

  return {
    collections: [...walkTree(collectionTree(collections, []))],
    exportedAt,
    async *bookmarks(folder) {
      // Unsorted is every bookmark without an active folder: read them all and keep those.
      const unsorted = folder?.length === 0;
      const collectionIds = folder === undefined || unsorted ? undefined : (idsByPath.get(pathKey(folder)) ?? []);
      for await (const rows of jobs.exportPages(userId, { pageSize, ...(collectionIds === undefined ? {} : { collectionIds }) })) {
        const page = rows.map(toBookmark);
        const kept = unsorted ? page.filter((b) => b.collectionPath.length === 0) : page;
        await onPage(kept.length);
        yield kept;
      }
    },
  };
}

/**
 * Depth first from the roots, siblings in the order given; a collection whose parent is not
 * active counts as a root. Answers the collections in that order and each one's path.
 */
function walkCollections(rows: readonly ExportCollectionRow[]): { collections: InterchangeCollection[]; paths: Map<string, string[]> } {
  const active = new Set(rows.map((r) => r.id));
  const children = new Map<string | null, ExportCollectionRow[]>();
  for (const row of rows) {
    const parent = row.parentId !== null && active.has(row.parentId) ? row.parentId : null;
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
