import { netscapeHtmlChunks } from './formats/netscape-html-write.ts';
import { shelfCsvChunks } from './formats/shelf-csv.ts';
import { shelfJsonChunks } from './formats/shelf-json.ts';
import type { ExportFormat, InterchangeLibrary } from './types.ts';

const WRITERS: Record<ExportFormat, (library: InterchangeLibrary) => Generator<string>> = {
  json: shelfJsonChunks,
  csv: shelfCsvChunks,
  html: netscapeHtmlChunks,
};

/** For the download response: Content-Type and a file extension per export format. */
export const EXPORT_FILE_TYPES: Record<ExportFormat, { contentType: string; extension: string }> = {
  json: { contentType: 'application/json; charset=utf-8', extension: 'json' },
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  html: { contentType: 'text/html; charset=utf-8', extension: 'html' },
};

/** The export as pieces, for streaming to a file or response without one big string. */
export function writeExportChunks(format: ExportFormat, library: InterchangeLibrary): Generator<string> {
  return WRITERS[format](library);
}

export function writeExport(format: ExportFormat, library: InterchangeLibrary): string {
  return [...writeExportChunks(format, library)].join('');
}
