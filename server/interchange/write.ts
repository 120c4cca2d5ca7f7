import { librarySource } from './export-source.ts';
import { netscapeHtmlChunks } from './formats/netscape-html-write.ts';
import { shelfCsvChunks } from './formats/shelf-csv.ts';
import { shelfJsonChunks } from './formats/shelf-json.ts';
import type { ExportFormat, ExportSource, InterchangeLibrary } from './types.ts';

const WRITERS: Record<ExportFormat, (source: ExportSource) => AsyncGenerator<string>> = {
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

/** The export as pieces, a page of bookmarks at most each, for streaming to a file without one big string. */
export function writeExportChunks(format: ExportFormat, source: ExportSource): AsyncGenerator<string> {
  return WRITERS[format](source);
}

/** The export of a library held in memory, as one string. */
export async function writeExport(format: ExportFormat, library: InterchangeLibrary): Promise<string> {
  const parts: string[] = [];
  for await (const chunk of writeExportChunks(format, librarySource(library))) parts.push(chunk);
  return parts.join('');
}
