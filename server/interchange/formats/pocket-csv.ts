import { readBookmarkRows } from '../csv.ts';
import type { ParsedImport } from '../types.ts';
import { cleanTags, epochToMs, newBookmark } from '../values.ts';

export const POCKET_COLUMNS = ['url', 'time_added'] as const;

/**
 * Pocket: `title,url,time_added,tags,status`. Tags are '|'-separated, time_added is in
 * seconds. `status` (unread/archive) is reading state, which Shelf does not model, so it
 * is ignored rather than turned into an invented tag or folder.
 */
export function parsePocketCsv(text: string): ParsedImport {
  const { rows, skipped } = readBookmarkRows(text);
  const bookmarks: ParsedImport['bookmarks'] = [];
  for (const { row, url } of rows) {
    bookmarks.push(
      newBookmark(url, {
        title: row.cell('title').trim(),
        tags: cleanTags(row.cell('tags').split('|')),
        createdAt: epochToMs(row.cell('time_added')),
      }),
    );
  }
  return { format: 'pocket-csv', bookmarks, collections: [], skipped };
}
