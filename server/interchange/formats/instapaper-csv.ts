import { CollectionSet } from '../collections.ts';
import { readBookmarkRows } from '../csv.ts';
import type { ParsedImport } from '../types.ts';
import { cleanPath, cleanTags, epochToMs, newBookmark } from '../values.ts';

export const INSTAPAPER_COLUMNS = ['url', 'title', 'selection', 'folder'] as const;

// Instapaper's built-in folders are reading states, not user folders.
const UNSORTED_FOLDERS = new Set(['unread', 'archive']);
const STARRED_FOLDER = 'starred';

/**
 * Instapaper: `URL,Title,Selection,Folder[,Timestamp[,Tags]]`. Selection is the text the
 * user highlighted when saving, the closest thing to a description. Tags (newer exports)
 * are a JSON array string; a plain comma list is accepted too.
 */
export function parseInstapaperCsv(text: string): ParsedImport {
  const { rows, skipped } = readBookmarkRows(text);
  const bookmarks: ParsedImport['bookmarks'] = [];
  const collections = new CollectionSet();
  for (const { row, url } of rows) {
    const folder = row.cell('folder').trim();
    const builtIn = folder === '' || UNSORTED_FOLDERS.has(folder.toLowerCase());
    const isFavorite = folder.toLowerCase() === STARRED_FOLDER;
    // Instapaper folders are flat, so a '/' in a name is part of the name.
    const collectionPath = builtIn || isFavorite ? [] : cleanPath([folder]);
    collections.add(collectionPath);
    bookmarks.push(
      newBookmark(url, {
        title: row.cell('title').trim(),
        description: row.cell('selection').trim(),
        isFavorite,
        tags: parseTags(row.cell('tags')),
        collectionPath,
        createdAt: epochToMs(row.cell('timestamp')),
      }),
    );
  }
  return { format: 'instapaper-csv', bookmarks, collections: collections.list(), skipped };
}

function parseTags(cell: string): string[] {
  const text = cell.trim();
  if (text.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(text);
      if (Array.isArray(value)) return cleanTags(value.filter((tag): tag is string => typeof tag === 'string'));
    } catch {
      // not JSON after all: fall through to the comma list
    }
  }
  return cleanTags(text.split(','));
}
