import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DateRange } from '../interchange/dates.ts';
import { decodeChunks, sniffEncoding } from '../interchange/decode.ts';
import { FormatSniffer } from '../interchange/detect.ts';
import { STREAMING_PARSERS, parseAs, unrecognised } from '../interchange/parse.ts';
import type { ImportSink } from '../interchange/events.ts';
import type { ImportFormat, ParsedImport } from '../interchange/types.ts';
import { IMPORT_BATCH } from './import-run.ts';

/** The uploaded file, readable from its start as often as asked (the bytes are the store's: on disk or in PostgreSQL). */
export interface ImportFile {
  size: number;
  /** Null when its bytes are gone. */
  read(): Promise<Readable | null>;
}

/** What the file is told to (an ImportRun): its content, and a pause to write what it holds, recording `progress`. */
export interface ImportTarget extends ImportSink {
  drain(progress: number): Promise<void>;
}

/** An import file whose format is known, ready to be told to a run. */
export interface ImportSource {
  format: ImportFormat;
  /** Tells the run the file's content in file order, letting it write as it goes. */
  readInto(run: ImportTarget): Promise<void>;
}

/**
 * The most text a streaming reader is given at once. A stored file comes in pieces of 256 KiB
 * (PostgreSQL's rows), some 750 bookmarks, which the reader took in one go: up to a second of
 * the event loop on a busy machine (JIT not yet warm), and most of a run resumed after a crash
 * reads without writing (the entries before its position), so nothing else gave way. Meanwhile
 * no lease renewal ran, so the job's lease lapsed while its instance was alive and working, and
 * every other request of that instance waited.
 */
export const TEXT_SLICE = 16 * 1024;

/** A batch shows as progress; 100 waits for the completion. */
const progressOf = (done: number, total: number): number => Math.max(1, Math.min(99, Math.floor((100 * done) / Math.max(1, total))));

/**
 * Finds the file's encoding and format, reading it a chunk at a time. A format with a
 * streaming reader (HTML, CSV) is then read the same way as the run writes; the JSON ones are
 * parsed whole here, which the upload limit bounds. Throws UnsupportedFormatError as
 * parseImport does.
 */
export async function openImport(file: ImportFile, range: DateRange): Promise<ImportSource> {
  const { size } = file;
  const bytes = async function* (): AsyncGenerator<Buffer> {
    const stream = await file.read();
    if (stream === null) throw new Error('the import file went while it was read');
    yield* stream as AsyncIterable<Buffer>;
  };
  const encoding = await sniffEncoding(bytes());
  const text = (read: (bytes: number) => void = () => undefined): AsyncGenerator<string> => decodeChunks(counted(bytes(), read), encoding);

  const sniffer = new FormatSniffer();
  for await (const chunk of text()) sniffer.push(chunk);
  const whole = sniffer.isJson() ? await joined(text()) : null;
  const format = sniffer.format(whole);
  if (format === null) throw unrecognised(sniffer.isJson());

  const streaming = STREAMING_PARSERS[format];
  if (streaming !== undefined) {
    return {
      format,
      async readInto(run) {
        let bytes = 0;
        await streaming(
          slices(text((n) => (bytes += n))),
          range,
          run,
          () => run.drain(progressOf(bytes, size)),
        );
        await run.drain(99);
      },
    };
  }
  const parsed = parseAs(format, whole ?? (await joined(text())), range);
  return { format, readInto: (run) => replay(parsed, run) };
}

/** The text in slices of at most TEXT_SLICE characters (never inside a surrogate pair), each on a turn of the event loop of its own. */
export async function* slices(text: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const chunk of text) {
    for (let start = 0; start < chunk.length; ) {
      let end = Math.min(chunk.length, start + TEXT_SLICE);
      if (end < chunk.length && /[\uD800-\uDBFF]/.test(chunk.charAt(end - 1))) end += 1;
      if (start > 0) await nextTurn();
      yield chunk.slice(start, end);
      start = end;
    }
  }
}

/** A file parsed whole, told as a streaming reader would: its folders first (as they were written before). */
async function replay(parsed: ParsedImport, run: ImportTarget): Promise<void> {
  for (const collection of parsed.collections) run.collection(collection.path, collection);
  for (const entry of parsed.skipped) run.skipped(entry);
  for (const [i, bookmark] of parsed.bookmarks.entries()) {
    run.bookmark(bookmark);
    if ((i + 1) % IMPORT_BATCH === 0) await run.drain(progressOf(i + 1, parsed.bookmarks.length));
  }
}

async function* counted(bytes: AsyncIterable<Buffer>, read: (bytes: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of bytes) {
    read(chunk.length);
    yield chunk;
  }
}

async function joined(chunks: AsyncIterable<string>): Promise<string> {
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return parts.join('');
}
