import { type CsvFormat, bookmarkRows, parseCsvFormat } from '../csv.ts';
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
export const instapaperCsvRows: CsvFormat = (range, sink) =>
  bookmarkRows({ column: 'timestamp', toMs: epochToMs }, range, sink, ({ row, url, createdAt }) => {
    const folder = row.cell('folder').trim();
    const builtIn = [UNREAD_FOLDER, ARCHIVE_FOLDER, STARRED_FOLDER].find((name) => name === folder.toLowerCase());
    const isFavorite = builtIn === STARRED_FOLDER;
    // Instapaper folders are flat, so a '/' in a name is part of the name.
    const collectionPath = builtIn === undefined ? cleanPath([folder]) : [];
    sink.collection(collectionPath);
    sink.bookmark(
      newBookmark(url, {
        title: row.cell('title').trim(),
        description: row.cell('selection').trim(),
        isFavorite,
        tags: builtIn === ARCHIVE_FOLDER ? cleanTags([...parseTags(row.cell('tags')), ARCHIVED_TAG]) : parseTags(row.cell('tags')),
        collectionPath,
        createdAt,
      }),
    );
  });

export const parseInstapaperCsv = (text: string, range: DateRange): ParsedImport =>
  parseCsvFormat('instapaper-csv', instapaperCsvRows, text, range);

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
