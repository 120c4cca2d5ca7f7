import { describe, expect, it } from 'vitest';
import { decodeChunks, decodeInput, sniffEncoding } from '../../../server/interchange/decode.ts';
import { FormatSniffer, detectFormat } from '../../../server/interchange/detect.ts';
import { ParsedCollector } from '../../../server/interchange/events.ts';
import type { DateRange } from '../../../server/interchange/dates.ts';
import { STREAMING_PARSERS, parseImport } from '../../../server/interchange/parse.ts';
import type { ImportFormat, ParsedImport } from '../../../server/interchange/types.ts';
import { writeExport } from '../../../server/interchange/write.ts';
import { generatedLibrary } from '../../support/export-library.ts';
import { importRangeNow, instapaperCsv, netscapeHtml, pocketCsv, pocketHtml, raindropCsv } from '../../support/import-files.ts';
import { haveSharedImports, sharedImport } from '../../support/shared-fixtures.ts';

/** The bytes cut every `size` bytes, as a file read in chunks gives them. */
function* chunksOf<T extends string | Buffer>(whole: T, size: number): Generator<T> {
  for (let start = 0; start < whole.length; start += size) yield whole.slice(start, start + size) as T;
}

/** The text cut about every `size` characters, never inside a character, as decodeChunks gives it. */
function* textChunksOf(whole: string, size: number): Generator<string> {
  for (let start = 0; start < whole.length; ) {
    let end = Math.min(whole.length, start + size);
    if (/[\uD800-\uDBFF]/.test(whole.charAt(end - 1)) && end < whole.length) end += 1;
    yield whole.slice(start, end);
    start = end;
  }
}

async function* fromChunks<T>(chunks: Iterable<T>): AsyncGenerator<T> {
  yield* chunks;
}

const SHARED = [
  'chrome-netscape-nested.html',
  'firefox-netscape-cyrillic-2026.html',
  'ie11-netscape-nested-bom.html',
  'safari-netscape-readinglist.html',
  'pocket-ril_export.html',
  'instapaper-export.csv',
  'pocket-export-multiline.csv',
  'raindrop-export.csv',
];

/** Every format read a chunk at a time, in files with their quirks (small ones first). */
async function streamedFiles(): Promise<[string, Buffer][]> {
  const files: [string, Buffer][] = [
    ['generated Netscape HTML', Buffer.from(netscapeHtml().content)],
    ['generated Pocket HTML', Buffer.from(pocketHtml().content)],
    ...[pocketCsv(), instapaperCsv(), raindropCsv()].map((file): [string, Buffer] => [file.name, Buffer.from(file.content)]),
    ['our HTML export of 300 bookmarks', Buffer.from(await writeExport('html', generatedLibrary(300)))],
    ['our CSV export of 300 bookmarks', Buffer.from(await writeExport('csv', generatedLibrary(300)))],
  ];
  if (haveSharedImports) files.push(...SHARED.map((name): [string, Buffer] => [name, sharedImport(name)]));
  return files;
}

/** What the format's streaming reader tells of these chunks, gathered, with the unreadable entries in line order as parseImport has them. */
async function streamed(format: ImportFormat, chunks: Iterable<string>, range: DateRange): Promise<ParsedImport> {
  const collector = new ParsedCollector();
  await STREAMING_PARSERS[format]!(fromChunks(chunks), range, collector, async () => undefined);
  const parsed = collector.result(format);
  parsed.skipped.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return parsed;
}

describe('a file read a chunk at a time', () => {
  it.each([1, 7, 4096])('gives what the whole text gives, in chunks of %i characters', async (size) => {
    // One character at a time is slow for the large files: the small ones show it.
    for (const [name, bytes] of (await streamedFiles()).slice(0, size === 1 ? 5 : undefined)) {
      const range = importRangeNow();
      const whole = parseImport(bytes, range);
      const text = decodeInput(bytes);
      const sniffer = new FormatSniffer();
      for (const chunk of textChunksOf(text, size)) sniffer.push(chunk);
      expect(sniffer.format(null), name).toBe(whole.format);

      expect(await streamed(whole.format, textChunksOf(text, size), range), name).toEqual(whole);
    }
  });

  it('finds a mark that a chunk boundary cuts in two', () => {
    const text = `<html><body>${' '.repeat(5000)}<DT><A HREF="https://x.example/">x</A></body></html>`;
    expect(detectFormat(text)).toBe('netscape-html');
    const sniffer = new FormatSniffer();
    for (const chunk of textChunksOf(text, 5020)) sniffer.push(chunk);
    expect(sniffer.format(null)).toBe('netscape-html');
  });
});

describe('decoding a file a chunk at a time', () => {
  const text = '\uFEFFcafé – “quotes” 日本 🎉\nline two €';
  const encodings: [string, Buffer][] = [
    ['UTF-8 with a byte order mark', Buffer.from(text, 'utf8')],
    ['UTF-8 without', Buffer.from(text.slice(1), 'utf8')],
    ['UTF-16LE', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(1), 'utf16le')])],
    ['UTF-16BE', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text.slice(1), 'utf16le').swap16()])],
    ['windows-1252', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x80])],
  ];

  it.each(encodings)('%s gives the text decodeInput gives, however the bytes are cut', async (_name, bytes) => {
    for (const size of [1, 2, 3, 5, 1024]) {
      const encoding = await sniffEncoding(fromChunks(chunksOf(bytes, size)));
      const parts: string[] = [];
      for await (const part of decodeChunks(fromChunks(chunksOf(bytes, size)), encoding)) parts.push(part);
      expect(parts.join('')).toBe(decodeInput(bytes));
    }
  });
});
