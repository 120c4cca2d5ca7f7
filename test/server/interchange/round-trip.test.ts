import { describe, expect, it } from 'vitest';
import type { InterchangeBookmark, InterchangeLibrary } from '../../../server/interchange/types.ts';
import { librarySource } from '../../../server/interchange/export-source.ts';
import { writeExport, writeExportChunks } from '../../../server/interchange/write.ts';
import { SAMPLE_COLLECTIONS } from '../../support/export-library.ts';
import { readImport } from '../../support/import-files.ts';

const collections = SAMPLE_COLLECTIONS;

function bookmark(overrides: Partial<InterchangeBookmark> & { url: string }): InterchangeBookmark {
  return {
    title: '',
    description: '',
    note: '',
    type: 'link',
    isFavorite: false,
    tags: [],
    collectionPath: [],
    createdAt: null,
    ...overrides,
  };
}

const bookmarks: InterchangeBookmark[] = [
  bookmark({
    url: 'https://example.com/a?x=1&y=2',
    title: 'Tom & Jerry <script>alert("x")</script>',
    description: 'Line one\nLine two\n\nLine four',
    note: 'My note\nwith "quotes", commas, <tags> & ampersands\r\nand CRLF',
    type: 'article',
    isFavorite: true,
    tags: ['dev/js', 'rock, paper', 'say "hi"', '<b>', 'über/straße'],
    collectionPath: ['Work', 'Projects / 2024', 'Q1, "draft" <beta> & co'],
    createdAt: Date.UTC(2016, 5, 15, 17, 4, 26),
  }),
  bookmark({
    url: 'https://img.example.org/cat.png',
    title: '=HYPERLINK("http://evil")',
    type: 'image',
    tags: ['-minus', '+plus', '@at'],
    collectionPath: ['Work'],
    createdAt: 1466010266123,
  }),
  bookmark({ url: 'https://video.example/v/1', title: '  padded title  ', type: 'video', collectionPath: ['Work'] }),
  bookmark({
    url: 'https://docs.example/spec.pdf',
    title: "'=already quoted",
    description: '   ',
    type: 'document',
    isFavorite: true,
    collectionPath: ['Личное 日本 🎌'],
    createdAt: Date.UTC(1990, 0, 1),
  }),
  bookmark({ url: 'http://unsorted.example/', title: 'Unsorted one', createdAt: Date.UTC(1995, 0, 1) }),
  bookmark({ url: 'http://unsorted.example/', title: 'Unsorted one (duplicate kept)', tags: ['dup'] }),
  bookmark({ url: 'ftp://files.example/pub/', title: 'Ünïcödé 日本語 🎉', description: 'tab\there', collectionPath: ['Back\\slash', "It's = fine"] }),
  bookmark({ url: 'https://example.com/empty-title', collectionPath: ['Back\\slash'], createdAt: Date.UTC(2024, 11, 31, 23, 59, 59, 999) }),
];

const library: InterchangeLibrary = { bookmarks, collections, exportedAt: Date.UTC(2025, 0, 2, 3, 4, 5) };

function sortedByContent(list: InterchangeBookmark[]): InterchangeBookmark[] {
  const key = (b: InterchangeBookmark): string => `${b.url}\u0000${b.title}`;
  return [...list].sort((a, b) => key(a).localeCompare(key(b)));
}

describe('export then import loses nothing', () => {
  it.each(['json', 'csv'] as const)('%s keeps bookmarks, their order and every collection', async (format) => {
    const parsed = readImport(await writeExport(format, library));
    expect(parsed.format).toBe(format === 'json' ? 'shelf-json' : 'shelf-csv');
    expect(parsed.skipped).toEqual([]);
    expect(parsed.collections).toEqual(collections);
    expect(parsed.bookmarks).toEqual(bookmarks);
  });

  it('html keeps every bookmark and collection (bookmarks grouped by folder)', async () => {
    const parsed = readImport(await writeExport('html', library));
    expect(parsed.format).toBe('netscape-html');
    expect(parsed.skipped).toEqual([]);
    expect(parsed.collections).toEqual(collections);
    expect(sortedByContent(parsed.bookmarks)).toEqual(sortedByContent(bookmarks));
  });

  it.each(['json', 'csv', 'html'] as const)('%s also round-trips from a Buffer', async (format) => {
    const parsed = readImport(Buffer.from(await writeExport(format, library), 'utf8'));
    expect(sortedByContent(parsed.bookmarks)).toEqual(sortedByContent(bookmarks));
  });

  it.each(['json', 'csv', 'html'] as const)('%s of an empty library round-trips', async (format) => {
    const parsed = readImport(await writeExport(format, { bookmarks: [], collections: [], exportedAt: 0 }));
    expect(parsed).toMatchObject({ bookmarks: [], collections: [], skipped: [] });
  });

  it.each(['json', 'csv', 'html'] as const)('%s adds folders a bookmark points at but the list forgot', async (format) => {
    const parsed = readImport(
      await writeExport(format, {
        bookmarks: [bookmark({ url: 'https://x.example/', collectionPath: ['A', 'B'] })],
        collections: [],
        exportedAt: 0,
      }),
    );
    expect(parsed.collections.map((c) => c.path)).toEqual([['A'], ['A', 'B']]);
    expect(parsed.bookmarks[0]?.collectionPath).toEqual(['A', 'B']);
  });

  it.each(['json', 'csv', 'html'] as const)('%s chunks join to the same text', async (format) => {
    const chunks: string[] = [];
    for await (const chunk of writeExportChunks(format, librarySource(library))) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(await writeExport(format, library));
  });

  it('json and csv survive a second round trip byte for byte', async () => {
    for (const format of ['json', 'csv', 'html'] as const) {
      const first = await writeExport(format, library);
      const parsed = readImport(first);
      const second = await writeExport(format, { ...parsed, exportedAt: library.exportedAt });
      if (format === 'html') expect(readImport(second).bookmarks).toEqual(parsed.bookmarks);
      else expect(second).toBe(first);
    }
  });
});
