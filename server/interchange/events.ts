import { type CollectionAttributes, CollectionSet } from './collections.ts';
import type { DateRange } from './dates.ts';
import type { ImportFormat, InterchangeBookmark, ParsedImport, SkippedEntry } from './types.ts';

/**
 * What a reader finds in an import file, told as it reads, in file order: so that an import
 * can write what was read while the rest of the file is still to come.
 */
export interface ImportSink {
  /** A folder, with what the file says of it (it may be told again, with more). */
  collection(path: readonly string[], attributes?: CollectionAttributes): void;
  /** A bookmark, complete. */
  bookmark(bookmark: InterchangeBookmark): void;
  /** An entry that could not be read. */
  skipped(entry: SkippedEntry): void;
}

/** A reader fed the file's text a chunk at a time; `end` once it has all of it. */
export interface TextReader {
  write(chunk: string): void;
  end(): void;
}

/** A format's reader that takes the file in chunks. */
export type StreamingParser = (range: DateRange, sink: ImportSink) => TextReader;

/** Gathers what a reader tells into the whole file's ParsedImport. */
export class ParsedCollector implements ImportSink {
  private readonly collections = new CollectionSet();
  private readonly bookmarks: InterchangeBookmark[] = [];
  private readonly skips: SkippedEntry[] = [];

  collection(path: readonly string[], attributes?: CollectionAttributes): void {
    this.collections.add(path, attributes);
  }

  bookmark(bookmark: InterchangeBookmark): void {
    this.bookmarks.push(bookmark);
  }

  skipped(entry: SkippedEntry): void {
    this.skips.push(entry);
  }

  result(format: ImportFormat): ParsedImport {
    return { format, bookmarks: this.bookmarks, collections: this.collections.list(), skipped: this.skips };
  }
}

/** A streaming reader given the whole text at once. */
export function parseWhole(format: ImportFormat, parser: StreamingParser, text: string, range: DateRange): ParsedImport {
  const collector = new ParsedCollector();
  const reader = parser(range, collector);
  reader.write(text);
  reader.end();
  return collector.result(format);
}
