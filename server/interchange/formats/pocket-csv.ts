import { type CsvFormat, bookmarkRows, parseCsvFormat } from '../csv.ts';
import { type DateRange, epochToMs } from '../dates.ts';
import type { ParsedImport } from '../types.ts';
import { ARCHIVED_TAG, cleanTags, newBookmark } from '../values.ts';

export const POCKET_COLUMNS = ['url', 'time_added'] as const;

/**
 * Pocket: `title,url,time_added,tags,status`. Tags are '|'-separated, time_added is in
 * seconds. `status` archive becomes the tag ARCHIVED_TAG; unread is Shelf's every bookmark.
 */
export const pocketCsvRows: CsvFormat = (range, sink) =>
  bookmarkRows({ column: 'time_added', toMs: epochToMs }, range, sink, ({ row, url, createdAt }) =>
    sink.bookmark(
      newBookmark(url, {
        title: row.cell('title').trim(),
        tags: cleanTags([...row.cell('tags').split('|'), ...(isArchived(row.cell('status')) ? [ARCHIVED_TAG] : [])]),
        createdAt,
      }),
    ),
  );

export const parsePocketCsv = (text: string, range: DateRange): ParsedImport => parseCsvFormat('pocket-csv', pocketCsvRows, text, range);

const isArchived = (status: string): boolean => status.trim().toLowerCase() === 'archive';
