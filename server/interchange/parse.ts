import type { DateRange } from './dates.ts';
import { streamCsvFormat } from './csv.ts';
import { type StreamingParser, streamChunks } from './events.ts';
import { decodeInput } from './decode.ts';
import { detectFormat } from './detect.ts';
import { UnsupportedFormatError } from './errors.ts';
import { parseChromiumJson } from './formats/chromium-json.ts';
import { parseFirefoxJson } from './formats/firefox-json.ts';
import { instapaperCsvRows, parseInstapaperCsv } from './formats/instapaper-csv.ts';
import { netscapeHtmlReader, parseNetscapeHtml } from './formats/netscape-html.ts';
import { parsePocketCsv, pocketCsvRows } from './formats/pocket-csv.ts';
import { parsePocketHtml, pocketHtmlReader } from './formats/pocket-html.ts';
import { parseRaindropCsv, raindropCsvRows } from './formats/raindrop-csv.ts';
import { parseShelfCsv, shelfCsvRows } from './formats/shelf-csv.ts';
import { parseShelfJson } from './formats/shelf-json.ts';
import type { ImportFormat, ParsedImport } from './types.ts';

export { UnsupportedFormatError } from './errors.ts';

const PARSERS: Record<ImportFormat, (text: string, range: DateRange) => ParsedImport> = {
  'shelf-json': parseShelfJson,
  'shelf-csv': parseShelfCsv,
  'netscape-html': parseNetscapeHtml,
  'pocket-csv': parsePocketCsv,
  'pocket-html': parsePocketHtml,
  'chromium-json': parseChromiumJson,
  'firefox-json': parseFirefoxJson,
  'instapaper-csv': parseInstapaperCsv,
  'raindrop-csv': parseRaindropCsv,
};

/** The formats read a chunk at a time; the JSON ones are parsed whole (the upload limit bounds them). */
export const STREAMING_PARSERS: Partial<Record<ImportFormat, StreamingParser>> = {
  'netscape-html': streamChunks(netscapeHtmlReader),
  'pocket-html': streamChunks(pocketHtmlReader),
  'shelf-csv': streamCsvFormat(shelfCsvRows),
  'pocket-csv': streamCsvFormat(pocketCsvRows),
  'instapaper-csv': streamCsvFormat(instapaperCsvRows),
  'raindrop-csv': streamCsvFormat(raindropCsvRows),
};

/** Why a file of no format we know was refused; `json`: it starts as JSON does. */
export function unrecognised(json: boolean): UnsupportedFormatError {
  // A damaged (typically truncated) JSON export deserves a better hint than "unknown".
  if (json) {
    return new UnsupportedFormatError(
      'Unreadable JSON: not a complete Shelf JSON export, Chromium profile Bookmarks file or Firefox bookmarks backup (is the file truncated?)',
    );
  }
  return new UnsupportedFormatError(
    'Unrecognised import file: expected a Shelf JSON or CSV export, a browser bookmarks HTML or JSON file, ' +
      'a Pocket HTML or CSV export, or an Instapaper or Raindrop.io CSV export',
  );
}

/**
 * Reads an import file of any supported format. Throws UnsupportedFormatError only when
 * the format is not recognised; unreadable entries, and entries dated outside `range`,
 * are reported in `skipped`.
 */
export function parseImport(input: Buffer | string, range: DateRange): ParsedImport {
  const text = decodeInput(input);
  const format = detectFormat(text);
  if (format === null) throw unrecognised(text.trimStart().startsWith('{'));
  return parseAs(format, text, range);
}

/** The whole text read as a file of this format. */
export function parseAs(format: ImportFormat, text: string, range: DateRange): ParsedImport {
  const parsed = PARSERS[format](text, range);
  // CSV-level errors are found before row-level ones; report them in file order.
  parsed.skipped.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return parsed;
}
