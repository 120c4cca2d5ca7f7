import { readBookmarkRows } from '../csv.ts';
import { type DateRange, epochToMs } from '../dates.ts';
import type { ParsedImport } from '../types.ts';
import { ARCHIVED_TAG, cleanTags, newBookmark } from '../values.ts';

export const POCKET_COLUMNS = ['url', 'time_added'] as const;

/**
 * Pocket: `title,url,time_added,tags,status`. Tags are '|'-separated, time_added is in
 * seconds. `status` archive becomes the tag ARCHIVED_TAG; unread is Shelf's every bookmark.
 */
export function parsePocketCsv(text: string, range: DateRange): ParsedImport {
  const { rows, skipped } = readBookmarkRows(text, { column: 'time_added', toMs: epochToMs }, range);
  const bookmarks: ParsedImport['bookmarks'] = [];
  for (const { row, url, createdAt } of rows) {
    bookmarks.push(
      newBookmark(url, {
        title: row.cell('title').trim(),
        tags: cleanTags([...row.cell('tags').split('|'), ...(isArchived(row.cell('status')) ? [ARCHIVED_TAG] : [])]),
        createdAt,
      }),
    );
  }
  return { format: 'pocket-csv', bookmarks, collections: [], skipped };
}

const isArchived = (status: string): boolean => status.trim().toLowerCase() === 'archive';
