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

/** A format's reader that is fed the file's text in chunks. */
export type ChunkReader = (range: DateRange, sink: ImportSink) => TextReader;

/**
 * A format's reader for a file read a chunk at a time: it tells the sink what it reads and
 * waits for `drain` every so often, so that the sink can act on it before more is read.
 */
export type StreamingParser = (text: AsyncIterable<string>, range: DateRange, sink: ImportSink, drain: () => Promise<void>) => Promise<void>;

/** A chunk reader as a streaming parser: it drains after each chunk. */
export function streamChunks(reader: ChunkReader): StreamingParser {
  return async (text, range, sink, drain) => {
    const chunks = reader(range, sink);
    for await (const chunk of text) {
      chunks.write(chunk);
      await drain();
    }
    chunks.end();
  };
}

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

/** A chunk reader given the whole text at once. */
export function parseWhole(format: ImportFormat, parser: ChunkReader, text: string, range: DateRange): ParsedImport {
  const collector = new ParsedCollector();
  const reader = parser(range, collector);
  reader.write(text);
  reader.end();
  return collector.result(format);
}
