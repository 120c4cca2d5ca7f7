import { hasColumns, readCsvHeader } from './csv.ts';
import { stripBom } from './decode.ts';
import { parseJson } from './formats/browser-json.ts';
import { looksLikeChromiumJson } from './formats/chromium-json.ts';
import { looksLikeFirefoxJson } from './formats/firefox-json.ts';
import { INSTAPAPER_COLUMNS } from './formats/instapaper-csv.ts';
import { looksLikeNetscapeHtml } from './formats/netscape-html.ts';
import { POCKET_COLUMNS } from './formats/pocket-csv.ts';
import { looksLikePocketHtml } from './formats/pocket-html.ts';
import { RAINDROP_COLUMNS, RAINDROP_MARKERS } from './formats/raindrop-csv.ts';
import { SHELF_CSV_COLUMNS } from './formats/shelf-csv.ts';
import { looksLikeShelfJson } from './formats/shelf-json.ts';
import type { ImportFormat } from './types.ts';

/**
 * Recognises an import file from its content alone (file names and MIME types from
 * uploads are unreliable). CSV flavours are told apart by their header names, compared
 * case-insensitively and in any order; extra columns are allowed.
 */
export function detectFormat(text: string): ImportFormat | null {
  const body = stripBom(text).trimStart();
  if (body.startsWith('{')) return detectJson(body);

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
  if (looksLikePocketHtml(body)) return 'pocket-html';
  return looksLikeNetscapeHtml(body) ? 'netscape-html' : null;
}

function detectJson(body: string): ImportFormat | null {
  if (looksLikeShelfJson(body)) return 'shelf-json';
  const value = parseJson(body);
  if (looksLikeChromiumJson(value)) return 'chromium-json';
  return looksLikeFirefoxJson(value) ? 'firefox-json' : null;
}
