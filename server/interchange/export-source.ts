import { collectionTree, pathKey, walkTree } from './collections.ts';
import type { ExportSource, InterchangeLibrary } from './types.ts';

/** Bookmarks a page of an in-memory library holds. */
const PAGE = 1000;

/** A library held in memory as an export source: its folders completed with those only bookmarks name. */
export function librarySource(library: InterchangeLibrary): ExportSource {
  return {
    collections: [...walkTree(collectionTree(library.collections, library.bookmarks))],
    exportedAt: library.exportedAt,
    async *bookmarks(folder) {
      const key = folder === undefined ? null : pathKey(folder);
      const chosen = key === null ? library.bookmarks : library.bookmarks.filter((b) => pathKey(b.collectionPath) === key);
      for (let start = 0; start < chosen.length; start += PAGE) yield chosen.slice(start, start + PAGE);
    },
  };
}
