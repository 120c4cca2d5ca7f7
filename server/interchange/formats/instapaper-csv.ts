import { CollectionSet } from '../collections.ts';
import { readBookmarkRows } from '../csv.ts';
import { type DateRange, epochToMs } from '../dates.ts';
import type { ParsedImport } from '../types.ts';
import { ARCHIVED_TAG, cleanPath, cleanTags, newBookmark } from '../values.ts';

export const INSTAPAPER_COLUMNS = ['url', 'title', 'selection', 'folder'] as const;

// Instapaper's built-in folders are reading states, not user folders: Unread is every
// bookmark of Shelf's, Archive the tag ARCHIVED_TAG, Starred a favorite.
const UNREAD_FOLDER = 'unread';
const ARCHIVE_FOLDER = 'archive';
const STARRED_FOLDER = 'starred';

/**
 * Instapaper: `URL,Title,Selection,Folder[,Timestamp[,Tags]]`. Selection is the text the
 * user highlighted when saving, the closest thing to a description. Tags (newer exports)
 * are a JSON array string; a plain comma list is accepted too.
 */
export function parseInstapaperCsv(text: string, range: DateRange): ParsedImport {
  const { rows, skipped } = readBookmarkRows(text, { column: 'timestamp', toMs: epochToMs }, range);
  const bookmarks: ParsedImport['bookmarks'] = [];
  const collections = new CollectionSet();
  for (const { row, url, createdAt } of rows) {
    const folder = row.cell('folder').trim();
    const builtIn = [UNREAD_FOLDER, ARCHIVE_FOLDER, STARRED_FOLDER].find((name) => name === folder.toLowerCase());
    const isFavorite = builtIn === STARRED_FOLDER;
    // Instapaper folders are flat, so a '/' in a name is part of the name.
    const collectionPath = builtIn === undefined ? cleanPath([folder]) : [];
    collections.add(collectionPath);
    bookmarks.push(
      newBookmark(url, {
        title: row.cell('title').trim(),
        description: row.cell('selection').trim(),
        isFavorite,
        tags: builtIn === ARCHIVE_FOLDER ? cleanTags([...parseTags(row.cell('tags')), ARCHIVED_TAG]) : parseTags(row.cell('tags')),
        collectionPath,
        createdAt,
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
