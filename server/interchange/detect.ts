import { hasColumns, readCsvHeader } from './csv.ts';
import { stripBom } from './decode.ts';
import { parseJson } from './formats/browser-json.ts';
import { looksLikeChromiumJson } from './formats/chromium-json.ts';
import { looksLikeFirefoxJson } from './formats/firefox-json.ts';
import { INSTAPAPER_COLUMNS } from './formats/instapaper-csv.ts';
import { NETSCAPE_MARKS, looksLikeNetscapeHtml } from './formats/netscape-html.ts';
import { POCKET_COLUMNS } from './formats/pocket-csv.ts';
import { POCKET_MARKS, looksLikePocketHtml } from './formats/pocket-html.ts';
import { RAINDROP_COLUMNS, RAINDROP_MARKERS } from './formats/raindrop-csv.ts';
import { SHELF_CSV_COLUMNS } from './formats/shelf-csv.ts';
import { looksLikeShelfJson } from './formats/shelf-json.ts';
import type { ImportFormat } from './types.ts';

/** Text from the start kept for detection: the CSV header line and what HTML formats put first. */
const HEAD = 64 * 1024;
/**
 * Text kept from one chunk to the next while looking for a mark, so that one split by a chunk
 * boundary is still found: marks are a tag or two, and a tag longer than this is not a bookmark's.
 */
const CARRY = 16 * 1024;
const MARKS = [...POCKET_MARKS, ...NETSCAPE_MARKS];

/**
 * Recognises an import file from its content alone (file names and MIME types from
 * uploads are unreliable). CSV flavours are told apart by their header names, compared
 * case-insensitively and in any order; extra columns are allowed.
 */
export function detectFormat(text: string): ImportFormat | null {
  const sniffer = new FormatSniffer();
  sniffer.push(text);
  return sniffer.format(text);
}

/**
 * detectFormat for a file read a chunk at a time: it keeps the start of the file and which
 * HTML marks it has seen, not the file. JSON formats are told apart only by parsing the
 * whole text, which `format` is then given (see isJson).
 */
export class FormatSniffer {
  private head = '';
  private carry = '';
  private readonly found = new Set<RegExp>();

  push(chunk: string): void {
    if (this.head.length < HEAD) this.head += chunk.slice(0, HEAD - this.head.length);
    const window = this.carry + chunk;
    for (const mark of MARKS) if (!this.found.has(mark) && mark.test(window)) this.found.add(mark);
    this.carry = window.slice(-CARRY);
  }

  /** Whether telling the format needs the whole text. */
  isJson(): boolean {
    return this.body().startsWith('{');
  }

  format(wholeText: string | null): ImportFormat | null {
    const body = this.body();
    if (body.startsWith('{')) return wholeText === null ? null : detectJson(stripBom(wholeText).trimStart());

    // Before the HTML check: a CSV whose cells quote bookmark HTML is still a CSV.
    const header = readCsvHeader(body);
    if (header !== null) {
      if (hasColumns(header, SHELF_CSV_COLUMNS)) return 'shelf-csv';
      if (hasColumns(header, INSTAPAPER_COLUMNS)) return 'instapaper-csv';
      if (hasColumns(header, POCKET_COLUMNS)) return 'pocket-csv';
      if (hasColumns(header, RAINDROP_COLUMNS) && RAINDROP_MARKERS.some((name) => header.includes(name))) {
        return 'raindrop-csv';
      }
    }
    if (looksLikePocketHtml(body, this.found)) return 'pocket-html';
    return looksLikeNetscapeHtml(body, this.found) ? 'netscape-html' : null;
  }

  private body(): string {
    return stripBom(this.head).trimStart();
  }
}

function detectJson(body: string): ImportFormat | null {
  if (looksLikeShelfJson(body)) return 'shelf-json';
  const value = parseJson(body);
  if (looksLikeChromiumJson(value)) return 'chromium-json';
  return looksLikeFirefoxJson(value) ? 'firefox-json' : null;
}
