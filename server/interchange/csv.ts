import { parse } from 'csv-parse/sync';
import { type DateRange, readDate } from './dates.ts';
import type { SkippedEntry } from './types.ts';
import { aboutUrl, checkUrl, skippedEntry } from './values.ts';

export interface CsvRow {
  /** 1-based line where the record starts (records may span lines inside quotes). */
  line: number;
  /** Cell by lower-cased header name; '' when the column or the cell is missing. */
  cell(column: string): string;
}

export interface CsvTable {
  rows: CsvRow[];
  skipped: SkippedEntry[];
}

function normaliseHeader(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * Reads a CSV whose first record is a header. Sloppy input is expected (stray quotes
 * inside unquoted cells, ragged rows), so malformed records are skipped and reported
 * by csv-parse instead of aborting the whole file.
 */
export function readCsv(text: string): CsvTable {
  const skipped: SkippedEntry[] = [];
  const records = parse(text, {
    bom: true,
    info: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      const line = error?.lines;
      skipped.push({
        ...(typeof line === 'number' ? { line } : {}),
        reason: `malformed CSV row: ${error?.message ?? 'unreadable'}`,
      });
      return undefined;
    },
  }) as unknown as { record: string[]; info: { lines: number } }[];

  const [header, ...body] = records;
  if (header === undefined) return { rows: [], skipped };
  const index = new Map<string, number>();
  header.record.forEach((name, i) => {
    const key = normaliseHeader(name);
    if (!index.has(key)) index.set(key, i);
  });

  const rows = body.map(({ record, info }): CsvRow => {
    const newlinesInside = record.reduce((count, value) => count + countNewlines(value), 0);
    return {
      line: info.lines - newlinesInside,
      cell: (column) => {
        const i = index.get(column);
        return i === undefined ? '' : (record[i] ?? '');
      },
    };
  });
  return { rows, skipped };
}

function countNewlines(value: string): number {
  let count = 0;
  for (let i = value.indexOf('\n'); i !== -1; i = value.indexOf('\n', i + 1)) count += 1;
  return count;
}

/** Header names of the first line, lower-cased, or null when it is not CSV at all. */
export function readCsvHeader(text: string): string[] | null {
  const end = text.search(/[\r\n]/);
  const firstLine = end === -1 ? text : text.slice(0, end);
  if (!firstLine.includes(',')) return null;
  try {
    const [record] = parse(firstLine, { bom: true, relax_quotes: true }) as string[][];
    return record?.map(normaliseHeader) ?? null;
  } catch {
    return null;
  }
}

export function hasColumns(header: readonly string[], required: readonly string[]): boolean {
  return required.every((name) => header.includes(name));
}

/** Where a CSV flavour keeps a bookmark's date, and in what unit. */
export interface DateColumn {
  column: string;
  toMs: (text: string) => number;
}

export interface BookmarkRow {
  row: CsvRow;
  url: string;
  createdAt: number | null;
}

/**
 * The rows whose url column holds a URL we keep and whose date column a date in the range,
 * each with both; every other row is skipped with its reason.
 */
export function readBookmarkRows(text: string, date: DateColumn, range: DateRange): { rows: BookmarkRow[]; skipped: SkippedEntry[] } {
  const { rows, skipped } = readCsv(text);
  const kept: BookmarkRow[] = [];
  for (const row of rows) {
    const url = checkUrl(row.cell('url'));
    if (!url.ok) {
      skipped.push(skippedEntry(url, row.line));
      continue;
    }
    const created = readDate(date.column, row.cell(date.column), date.toMs, range);
    if (created.ok) kept.push({ row, url: url.url, createdAt: created.ms });
    else skipped.push(skippedEntry(aboutUrl(url.url, created), row.line));
  }
  return { rows: kept, skipped };
}
