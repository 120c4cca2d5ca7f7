import { describe, expect, it } from 'vitest';
import { decodeChunks, decodeInput, sniffEncoding } from '../../../server/interchange/decode.ts';
import { FormatSniffer, detectFormat } from '../../../server/interchange/detect.ts';
import { ParsedCollector } from '../../../server/interchange/events.ts';
import { STREAMING_PARSERS, parseImport } from '../../../server/interchange/parse.ts';
import { writeExport } from '../../../server/interchange/write.ts';
import { generatedLibrary } from '../../support/export-library.ts';
import { importRangeNow, netscapeHtml, pocketHtml } from '../../support/import-files.ts';
import { haveSharedImports, sharedImport } from '../../support/shared-fixtures.ts';

/** The text cut every `size` characters, as a file read in chunks gives it. */
function* chunksOf<T extends string | Buffer>(whole: T, size: number): Generator<T> {
  for (let start = 0; start < whole.length; start += size) yield whole.slice(start, start + size) as T;
}

async function* fromChunks<T>(chunks: Iterable<T>): AsyncGenerator<T> {
  yield* chunks;
}

const SHARED_HTML = ['chrome-netscape-nested.html', 'firefox-netscape-cyrillic-2026.html', 'ie11-netscape-nested-bom.html', 'safari-netscape-readinglist.html', 'pocket-ril_export.html'];

async function htmlFiles(): Promise<[string, Buffer][]> {
  const files: [string, Buffer][] = [
    ['generated Netscape HTML', Buffer.from(netscapeHtml().content)],
    ['generated Pocket HTML', Buffer.from(pocketHtml().content)],
    ['our HTML export of 300 bookmarks', Buffer.from(await writeExport('html', generatedLibrary(300)))],
  ];
  if (haveSharedImports) files.push(...SHARED_HTML.map((name): [string, Buffer] => [name, sharedImport(name)]));
  return files;
}

describe('an HTML file read a chunk at a time', () => {
  it.each([1, 7, 4096])('gives what the whole text gives, in chunks of %i characters', async (size) => {
    // One character at a time is slow for the large real files: the small ones show it.
    for (const [name, bytes] of (await htmlFiles()).slice(0, size === 1 ? 2 : undefined)) {
      const range = importRangeNow();
      const whole = parseImport(bytes, range);
      const text = decodeInput(bytes);
      const sniffer = new FormatSniffer();
      for (const chunk of chunksOf(text, size)) sniffer.push(chunk);
      expect(sniffer.format(null), name).toBe(whole.format);

      const collector = new ParsedCollector();
      const reader = STREAMING_PARSERS[whole.format]!(range, collector);
      for (const chunk of chunksOf(text, size)) reader.write(chunk);
      reader.end();
      expect(collector.result(whole.format), name).toEqual(whole);
    }
  });

  it('finds a mark that a chunk boundary cuts in two', () => {
    const text = `<html><body>${' '.repeat(5000)}<DT><A HREF="https://x.example/">x</A></body></html>`;
    expect(detectFormat(text)).toBe('netscape-html');
    const sniffer = new FormatSniffer();
    for (const chunk of chunksOf(text, 5020)) sniffer.push(chunk);
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
