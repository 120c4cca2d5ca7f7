import { Readable } from 'node:stream';
import { type Options as CsvParseOptions, parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { type ImportSink, ParsedCollector, type StreamingParser } from './events.ts';
import type { ImportFormat, ParsedImport } from './types.ts';
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

/** What csv-parse gives with `info`: the record and where it ends. */
interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * Sloppy input is expected (stray quotes inside unquoted cells, ragged rows), so malformed
 * records are skipped and reported by csv-parse instead of aborting the whole file.
 */
function csvOptions(skipped: (entry: SkippedEntry) => void): CsvParseOptions {
  return {
    bom: true,
    info: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      const line = error?.lines;
      skipped({ ...(typeof line === 'number' ? { line } : {}), reason: `malformed CSV row: ${error?.message ?? 'unreadable'}` });
      return undefined;
    },
  };
}

/** Turns records into rows by the first record, the header. */
function csvRows(row: (row: CsvRow) => void): (record: CsvRecord) => void {
  let index: Map<string, number> | null = null;
  return ({ record, info }) => {
    if (index === null) {
      index = new Map<string, number>();
      for (const [i, name] of record.entries()) if (!index.has(normaliseHeader(name))) index.set(normaliseHeader(name), i);
      return;
    }
    const columns = index;
    const newlinesInside = record.reduce((count, value) => count + countNewlines(value), 0);
    row({
      line: info.lines - newlinesInside,
      cell: (column) => {
        const i = columns.get(column);
        return i === undefined ? '' : (record[i] ?? '');
      },
    });
  };
}

/** Reads a CSV whose first record is a header, each row told to `row` (see csvOptions for what is skipped). */
export function readCsvRows(text: string, row: (row: CsvRow) => void, skipped: (entry: SkippedEntry) => void): void {
  const records = parse(text, csvOptions(skipped)) as unknown as CsvRecord[];
  records.forEach(csvRows(row));
}

/** readCsvRows for text read a chunk at a time (whole characters each, as decodeChunks gives it), waiting for `drain` every so many rows. */
export async function streamCsvRows(
  text: AsyncIterable<string>,
  row: (row: CsvRow) => void,
  skipped: (entry: SkippedEntry) => void,
  drain: () => Promise<void>,
): Promise<void> {
  const toRow = csvRows(row);
  let count = 0;
  for await (const record of Readable.from(text).pipe(parseStream(csvOptions(skipped)))) {
    toRow(record as CsvRecord);
    if (++count % DRAIN_ROWS === 0) await drain();
  }
}

/** Rows read between two drains: a few batches. */
const DRAIN_ROWS = 200;

export function readCsv(text: string): CsvTable {
  const rows: CsvRow[] = [];
  const skipped: SkippedEntry[] = [];
  readCsvRows(text, (row) => rows.push(row), (entry) => skipped.push(entry));
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
 * each with both, told to `kept`; every other row is skipped with its reason.
 */
export function bookmarkRows(
  date: DateColumn,
  range: DateRange,
  sink: ImportSink,
  kept: (row: BookmarkRow) => void,
): (row: CsvRow) => void {
  return (row) => {
    const url = checkUrl(row.cell('url'));
    if (!url.ok) {
      sink.skipped(skippedEntry(url, row.line));
      return;
    }
    const created = readDate(date.column, row.cell(date.column), date.toMs, range);
    if (created.ok) kept({ row, url: url.url, createdAt: created.ms });
    else sink.skipped(skippedEntry(aboutUrl(url.url, created), row.line));
  };
}

/** A CSV format: what it makes of each row of the file, told to the sink. */
export type CsvFormat = (range: DateRange, sink: ImportSink) => (row: CsvRow) => void;

export function parseCsvFormat(format: ImportFormat, reader: CsvFormat, text: string, range: DateRange): ParsedImport {
  const collector = new ParsedCollector();
  readCsvRows(text, reader(range, collector), (entry) => collector.skipped(entry));
  return collector.result(format);
}

export const streamCsvFormat =
  (reader: CsvFormat): StreamingParser =>
  (text, range, sink, drain) =>
    streamCsvRows(text, reader(range, sink), (entry) => sink.skipped(entry), drain);
