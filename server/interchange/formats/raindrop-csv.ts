import { type CsvFormat, bookmarkRows, parseCsvFormat } from '../csv.ts';
import { type DateRange, isoOrEpochToMs } from '../dates.ts';
import type { ParsedImport } from '../types.ts';
import { cleanPath, cleanTags, newBookmark, parseBoolean } from '../values.ts';

export const RAINDROP_COLUMNS = ['url', 'folder'] as const;
export const RAINDROP_MARKERS = ['excerpt', 'highlights', 'cover'] as const;

/**
 * Raindrop.io backup: `id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite`.
 *
 * - folder: nested collections are written `Parent/Child` (Raindrop's own import docs say
 *   "a/b/c"), and some exports pad it as `Parent / Child`; both are split on '/' with the
 *   spaces around it trimmed. A Raindrop collection name that itself contains '/' is
 *   therefore split too: the CSV gives no way to tell the two apart.
 * - `Unsorted` at the root is Raindrop's name for "no collection".
 * - highlights are text the user marked; Shelf has no highlight import, so rather than
 *   drop them they are appended to the note under a "Highlights:" line.
 * - cover (an image URL on Raindrop's CDN) and id are not carried over.
 */
export const raindropCsvRows: CsvFormat = (range, sink) =>
  bookmarkRows({ column: 'created', toMs: isoOrEpochToMs }, range, sink, ({ row, url, createdAt }) => {
    const collectionPath = folderPath(row.cell('folder'));
    sink.collection(collectionPath);
    sink.bookmark(
      newBookmark(url, {
        title: row.cell('title').trim(),
        description: row.cell('excerpt').trim(),
        note: withHighlights(row.cell('note').trim(), row.cell('highlights').trim()),
        isFavorite: parseBoolean(row.cell('favorite')),
        tags: cleanTags(row.cell('tags').split(',')),
        collectionPath,
        createdAt,
      }),
    );
  });

export const parseRaindropCsv = (text: string, range: DateRange): ParsedImport => parseCsvFormat('raindrop-csv', raindropCsvRows, text, range);

function folderPath(folder: string): string[] {
  const path = cleanPath(folder.split('/'));
  return path.length === 1 && path[0]?.toLowerCase() === 'unsorted' ? [] : path;
}

function withHighlights(note: string, highlights: string): string {
  if (highlights === '') return note;
  const block = `Highlights:\n${highlights}`;
  return note === '' ? block : `${note}\n\n${block}`;
}
