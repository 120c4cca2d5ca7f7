import { beforeAll, describe, expect, it } from 'vitest';
import type { InterchangeBookmark, InterchangeLibrary } from '../../../server/interchange/types.ts';
import { EXPORT_FILE_TYPES, writeExport } from '../../../server/interchange/write.ts';
import { readImport } from '../../support/import-files.ts';

const base: InterchangeBookmark = {
  url: 'https://example.com/',
  title: 'Example',
  description: '',
  note: '',
  type: 'link',
  isFavorite: false,
  tags: [],
  collectionPath: [],
  createdAt: null,
};

const library = (bookmarks: InterchangeBookmark[], collections: InterchangeLibrary['collections'] = []): InterchangeLibrary => ({
  bookmarks,
  collections,
  exportedAt: Date.UTC(2025, 0, 1),
});

describe('Shelf JSON import', () => {
  const wrap = (bookmarks: unknown[], collections: unknown[] = []): string =>
    JSON.stringify({ version: 1, exportedAt: '2025-01-01T00:00:00.000Z', collections, bookmarks });

  it('skips a bad entry with a reason and keeps the rest', () => {
    const parsed = readImport(
      wrap([
        { url: 'https://ok.example/', title: 'ok' },
        { title: 'no url' },
        { url: 'https://bad-type.example/', type: 'podcast' },
        { url: 'https://bad-tags.example/', tags: 'a,b' },
        { url: 'javascript:alert(1)' },
        'not an object',
        { url: 'https://ok2.example/', isFavorite: true },
      ]),
    );
    expect(parsed.bookmarks.map((b) => b.url)).toEqual(['https://ok.example/', 'https://ok2.example/']);
    expect(parsed.skipped.map((s) => s.reason)).toEqual([
      expect.stringMatching(/^bookmark #2: url: /),
      expect.stringMatching(/^bookmark #3: type: /),
      expect.stringMatching(/^bookmark #4: tags: /),
      'bookmark #5: unsupported URL scheme "javascript:"',
      expect.stringMatching(/^bookmark #6: /),
    ]);
  });

  it('fills omitted fields with defaults and normalises names', () => {
    const parsed = readImport(
      wrap(
        [{ url: 'https://x.example/', tags: [' a ', '', 'a', 'b/c'], collectionPath: [' Top ', '', 'Sub'], createdAt: 1466010266000 }],
        [{ path: ['Top'], color: 'red' }, { path: [] }, { nope: true }],
      ),
    );
    expect(parsed.bookmarks[0]).toEqual({ ...base, url: 'https://x.example/', title: '', tags: ['a', 'b/c'], collectionPath: ['Top', 'Sub'], createdAt: 1466010266000 });
    expect(parsed.collections).toEqual([
      { path: ['Top'], icon: '', color: 'red', notes: '' },
      { path: ['Top', 'Sub'], icon: '', color: '', notes: '' },
    ]);
    expect(parsed.skipped).toEqual([
      { reason: 'collection #2: empty path', group: 'collection with an empty path' },
      { reason: expect.stringMatching(/^collection #3: path: /), group: 'unreadable collection entry' },
    ]);
  });

  it('skips a bookmark whose date is unreadable or out of range, and takes null for no date', () => {
    const parsed = readImport(
      wrap([
        { url: 'https://x.example/', createdAt: 'last tuesday' },
        { url: 'https://y.example/', createdAt: 1e16 },
        { url: 'https://z.example/', createdAt: '1969-12-31T00:00:00Z' },
        { url: 'https://ok.example/', createdAt: null },
      ]),
    );
    expect(parsed.bookmarks.map((b) => [b.url, b.createdAt])).toEqual([['https://ok.example/', null]]);
    expect(parsed.skipped.map((s) => s.reason)).toEqual([
      expect.stringMatching(/^https:\/\/x.example\/: createdAt "last tuesday" is not a date between 1990-01-01 and /),
      expect.stringMatching(/^https:\/\/y.example\/: createdAt "10000000000000000" is not a date between/),
      expect.stringMatching(/^https:\/\/z.example\/: createdAt "1969-12-31T00:00:00Z" is not a date between/),
    ]);
  });
});

describe('Shelf CSV', () => {
  const header = 'url,title,description,note,type,favorite,tags,collection,created';

  it('reads a hand-edited file leniently: short rows, empty type, loose booleans and dates', () => {
    const parsed = readImport(
      [
        header,
        'https://a.example/,A,,,,yes,"x, y,z",Top / Sub,2020-01-02',
        'https://b.example/,B',
        'https://c.example/,C,,,Article,1,,,1600000000',
        'https://d.example/,D,,,podcast,,,,',
        ',orphan,,,,,,,',
      ].join('\n'),
    );
    expect(parsed.bookmarks.map((b) => [b.url, b.type, b.isFavorite, b.tags, b.collectionPath, b.createdAt])).toEqual([
      ['https://a.example/', 'link', true, ['x', 'y', 'z'], ['Top', 'Sub'], Date.UTC(2020, 0, 2)],
      ['https://b.example/', 'link', false, [], [], null],
      ['https://c.example/', 'article', true, [], [], 1600000000000],
    ]);
    expect(parsed.skipped).toEqual([
      { line: 5, reason: 'unknown type "podcast"', group: 'unknown type' },
      { line: 6, reason: 'missing URL' },
    ]);
  });

  it('escapes separators inside tag and folder names', async () => {
    const csv = await writeExport(
      'csv',
      library([{ ...base, tags: ['a, b', 'back\\slash', 'dev/js'], collectionPath: ['AC/DC', 'Live \\ Loud'] }]),
    );
    expect(csv).toContain('"a\\, b, back\\\\slash, dev/js",AC\\/DC / Live \\\\ Loud,');
    expect(readImport(csv).bookmarks[0]).toMatchObject({ tags: ['a, b', 'back\\slash', 'dev/js'], collectionPath: ['AC/DC', 'Live \\ Loud'] });
  });

  it('guards cells that a spreadsheet would run as a formula, reversibly', async () => {
    const titles = ['=cmd|calc', '+1', '-1', '@SUM(A1)', "'=quoted", "''+twice", "plain 'quote", "'lonely"];
    const csv = await writeExport('csv', library(titles.map((title, i) => ({ ...base, url: `https://x.example/${i}`, title }))));
    const lines = csv.split('\n');
    expect(lines[1]).toMatch(/^https:\/\/x\.example\/0,'=cmd\|calc,/);
    expect(lines[3]).toMatch(/,'-1,/);
    expect(lines[5]).toMatch(/,''=quoted,/);
    expect(lines[7]).toMatch(/,plain 'quote,/);
    expect(readImport(csv).bookmarks.map((b) => b.title)).toEqual(titles);
  });

  it('starts with a BOM and the documented header, collection rows first', async () => {
    const csv = await writeExport('csv', library([{ ...base, collectionPath: ['Top'] }], [{ path: ['Top'], icon: '⭐', color: 'red', notes: 'n' }]));
    expect(csv.startsWith(`\uFEFF${header},icon,color\n`)).toBe(true);
    expect(csv.split('\n')[1]).toBe(',Top,,n,collection,,,Top,,⭐,red');
    expect(csv.split('\n')[2]).toBe('https://example.com/,Example,,,link,false,,Top,,,');
  });
});

describe('Shelf HTML export', () => {
  let html = '';
  beforeAll(async () => {
    html = await writeExport(
      'html',
      library(
        [
          { ...base, title: 'A & B <c> "d"', tags: ['x', 'y'], createdAt: 1466010266000, collectionPath: ['Top', 'Sub'], description: 'desc' },
          { ...base, url: 'https://e.example/?a=1&b="2"', type: 'video', isFavorite: true, note: 'line\nbreak' },
        ],
        [
          { path: ['Top'], icon: '', color: '', notes: 'Folder notes' },
          { path: ['Top', 'Sub'], icon: '', color: '', notes: '' },
          { path: ['Empty'], icon: '', color: 'red', notes: '' },
        ],
      ),
    );
  });

  it('is a Netscape bookmark file browsers import', () => {
    expect(html.startsWith('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n')).toBe(true);
    expect(html).toContain('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">');
    expect(html).toContain('<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n');
    expect(html.trimEnd().endsWith('</DL><p>')).toBe(true);
  });

  it('writes folders as nested <H3>/<DL>, empty ones included, with notes as <DD>', () => {
    expect(html).toContain('    <DT><H3 ADD_DATE="1735689600" LAST_MODIFIED="1735689600">Top</H3>\n    <DD>Folder notes\n    <DL><p>\n');
    expect(html).toContain('        <DT><H3 ADD_DATE="1735689600" LAST_MODIFIED="1735689600">Sub</H3>\n        <DL><p>\n');
    expect(html).toContain('<H3 ADD_DATE="1735689600" LAST_MODIFIED="1735689600" DATA-COLOR="red">Empty</H3>\n    <DL><p>\n    </DL><p>\n');
  });

  it('escapes text and attributes and adds Shelf attributes only when needed', () => {
    expect(html).toContain(
      '            <DT><A HREF="https://example.com/" ADD_DATE="1466010266" TAGS="x,y">A &amp; B &lt;c&gt; "d"</A>\n            <DD>desc\n',
    );
    expect(html).toContain(
      '<DT><A HREF="https://e.example/?a=1&amp;b=&quot;2&quot;" DATA-TYPE="video" DATA-FAVORITE="1" DATA-NOTE="line&#10;break">Example</A>\n',
    );
  });

  it('has a content type per format for the download', () => {
    expect(EXPORT_FILE_TYPES.html.contentType).toBe('text/html; charset=utf-8');
    expect(EXPORT_FILE_TYPES.csv.extension).toBe('csv');
  });
});
