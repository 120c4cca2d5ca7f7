import { type DateRange, isoOrEpochToMs, readDate } from '../dates.ts';
import { stringify } from 'csv-stringify/sync';
import { type CsvFormat, parseCsvFormat } from '../csv.ts';
import type { ExportSource, ParsedImport } from '../types.ts';
import { aboutUrl, checkUrl, cleanPath, cleanTags, isBookmarkType, msToIso, parseBoolean, skippedEntry } from '../values.ts';

/**
 * Our CSV, one bookmark per row, readable in a spreadsheet and re-importable without loss:
 *
 *   url,title,description,note,type,favorite,tags,collection,created,icon,color
 *
 * - tags: joined with ', '; a ',' or '\' inside a tag name is escaped with '\'.
 * - collection: the path joined with ' / '; a '/' or '\' inside a folder name is escaped
 *   with '\' (so "AC\/DC / Live" is the folder "Live" inside "AC/DC").
 * - Collections get rows of their own (type `collection`, url empty, notes in `note`,
 *   plus the trailing icon and color columns, which only such rows use), so empty
 *   collections and collection attributes survive, which one-row-per-bookmark cannot do.
 *   The first nine columns are the documented bookmark header; readers that only know
 *   those ignore the extra two.
 * - created: ISO 8601, empty when unknown. favorite: true/false.
 * - Any cell starting with = + - @ tab or CR gets a leading ' so spreadsheets do not run
 *   it as a formula (page titles are attacker-chosen); the reader removes exactly one.
 * - The file starts with a UTF-8 BOM so Excel does not read it as ANSI.
 */
export const SHELF_CSV_COLUMNS = ['url', 'title', 'description', 'note', 'type', 'favorite', 'tags', 'collection', 'created'] as const;
const ALL_COLUMNS = [...SHELF_CSV_COLUMNS, 'icon', 'color'] as const;
const COLLECTION_ROW = 'collection';

export const shelfCsvRows: CsvFormat = (range, sink) => (row) => {
  const cell = (column: string): string => unguardFormula(row.cell(column));
  const type = cell('type').trim().toLowerCase() || 'link';
  const collectionPath = cleanPath(splitEscaped(cell('collection'), '/'));

  if (type === COLLECTION_ROW) {
    if (collectionPath.length === 0) sink.skipped({ line: row.line, reason: 'collection row without a collection path' });
    else sink.collection(collectionPath, { icon: cell('icon'), color: cell('color'), notes: cell('note') });
    return;
  }
  const url = checkUrl(cell('url'));
  if (!url.ok) {
    sink.skipped(skippedEntry(url, row.line));
    return;
  }
  if (!isBookmarkType(type)) {
    sink.skipped({ line: row.line, reason: `unknown type "${type}"`, group: 'unknown type' });
    return;
  }
  const created = readDate('created', cell('created'), isoOrEpochToMs, range);
  if (!created.ok) {
    sink.skipped(skippedEntry(aboutUrl(url.url, created), row.line));
    return;
  }
  sink.collection(collectionPath);
  sink.bookmark({
    url: url.url,
    title: cell('title'),
    description: cell('description'),
    note: cell('note'),
    type,
    isFavorite: parseBoolean(cell('favorite')),
    tags: cleanTags(splitEscaped(cell('tags'), ',')),
    collectionPath,
    createdAt: created.ms,
  });
};

export const parseShelfCsv = (text: string, range: DateRange): ParsedImport => parseCsvFormat('shelf-csv', shelfCsvRows, text, range);

export async function* shelfCsvChunks(source: ExportSource): AsyncGenerator<string> {
  const collectionRows = source.collections.map((c) =>
    row({ type: COLLECTION_ROW, title: c.path.at(-1) ?? '', collection: joinPath(c.path), note: c.notes, icon: c.icon, color: c.color }),
  );
  yield stringify([[...ALL_COLUMNS], ...collectionRows], { bom: true });
  for await (const page of source.bookmarks()) {
    const rows = page.map((b) =>
      row({
        url: b.url,
        title: b.title,
        description: b.description,
        note: b.note,
        type: b.type,
        favorite: String(b.isFavorite),
        tags: b.tags.map((tag) => escape(tag, ',')).join(', '),
        collection: joinPath(b.collectionPath),
        created: msToIso(b.createdAt) ?? '',
      }),
    );
    yield stringify(rows);
  }
}

function row(cells: Partial<Record<(typeof ALL_COLUMNS)[number], string>>): string[] {
  return ALL_COLUMNS.map((column) => guardFormula(cells[column] ?? ''));
}

function joinPath(path: readonly string[]): string {
  return path.map((name) => escape(name, '/')).join(' / ');
}

function escape(text: string, separator: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll(separator, `\\${separator}`);
}

function splitEscaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charAt(i);
    if (char === '\\' && i + 1 < text.length) {
      i += 1;
      current += text.charAt(i);
    } else if (char === separator) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

// Writing prefixes one quote when the value, after any quotes it already starts with,
// begins a formula; reading strips one quote under the same condition. That makes the
// pair exact inverses, so even a title like "'=x" comes back unchanged.
const FORMULA_AFTER_QUOTES = /^'*[=+\-@\t\r]/;
const GUARDED = /^'+[=+\-@\t\r]/;

function guardFormula(value: string): string {
  return FORMULA_AFTER_QUOTES.test(value) ? `'${value}` : value;
}

function unguardFormula(value: string): string {
  return GUARDED.test(value) ? value.slice(1) : value;
}
