import { describe, expect, it } from 'vitest';
import { decodeInput } from '../../../server/interchange/decode.ts';
import { detectFormat } from '../../../server/interchange/detect.ts';
import { UnsupportedFormatError } from '../../../server/interchange/parse.ts';
import { readImport } from '../../support/import-files.ts';

describe('detectFormat', () => {
  it.each([
    ['our JSON', '{"version":1,"exportedAt":"2025-01-01T00:00:00.000Z","collections":[],"bookmarks":[]}', 'shelf-json'],
    ['our JSON, pretty printed', '\n{\n  "bookmarks": [],\n  "version": 1\n}\n', 'shelf-json'],
    ['our CSV', 'url,title,description,note,type,favorite,tags,collection,created,icon,color\n', 'shelf-csv'],
    ['our CSV, bare nine columns', 'url,title,description,note,type,favorite,tags,collection,created\n', 'shelf-csv'],
    ['Netscape doctype only', '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>', 'netscape-html'],
    ['Netscape without doctype', '<html><body><dl><p><dt><a href="https://x.example/">x</a></dl></body></html>', 'netscape-html'],
    ['Netscape with folders only', '<DL><p><DT><H3>Empty</H3><DL><p></DL><p></DL>', 'netscape-html'],
    ['Pocket', 'title,url,time_added,tags,status\n', 'pocket-csv'],
    ['Pocket, columns reordered and quoted', '"url","status","title","time_added","tags"\r\n', 'pocket-csv'],
    ['Instapaper', 'URL,Title,Selection,Folder\n', 'instapaper-csv'],
    ['Instapaper with Timestamp and Tags', 'URL,Title,Selection,Folder,Timestamp,Tags\n', 'instapaper-csv'],
    ['Raindrop', 'id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite\n', 'raindrop-csv'],
    ['Pocket HTML', '<!DOCTYPE html><ul><li><a href="https://x.example/" time_added="1600000000" tags="">x</a></li></ul>', 'pocket-html'],
    ['Pocket HTML, nothing in it', '<!DOCTYPE html><html><head><title>Pocket Export</title></head><body><h1>Unread</h1><ul></ul></body></html>', 'pocket-html'],
    ['Chromium Bookmarks', '{"checksum":"x","roots":{"bookmark_bar":{"children":[],"name":"Bookmarks bar","type":"folder"}},"version":1}', 'chromium-json'],
    ['Firefox backup', '{"guid":"root________","title":"","type":"text/x-moz-place-container","root":"placesRoot","children":[]}', 'firefox-json'],
  ] as const)('recognises %s', (_label, text, format) => {
    expect(detectFormat(text)).toBe(format);
    expect(detectFormat(`\uFEFF${text}`)).toBe(format);
  });

  it.each([
    ['empty', ''],
    ['plain text', 'just some notes\nhttps://example.com\n'],
    ['other JSON', '{"items":[{"url":"https://x.example/"}]}'],
    ['our JSON, broken', '{"version":1,"bookmarks":['],
    ['a JSON array', '[{"url":"https://x.example/"}]'],
    ['an unknown CSV', 'name,link,date\nx,https://x.example/,2020\n'],
    ['an ordinary web page', '<html><body><a href="https://x.example/">x</a></body></html>'],
  ])('returns null for %s', (_label, text) => {
    expect(detectFormat(text)).toBeNull();
  });

  it('trusts a CSV header over HTML inside a cell', () => {
    expect(detectFormat('title,url,time_added,tags,status\n"<DT><A HREF=""https://x.example/"">",https://x.example/,1,,\n')).toBe('pocket-csv');
  });
});

describe('parseImport input handling', () => {
  it('throws UnsupportedFormatError only for an unrecognised file', () => {
    expect(() => readImport('hello')).toThrow(UnsupportedFormatError);
    expect(() => readImport(Buffer.alloc(0))).toThrow(UnsupportedFormatError);
    expect(() => readImport('title,url,time_added\n,,,,,\n"unclosed')).not.toThrow();
  });

  it('says so when a JSON file is damaged', () => {
    expect(() => readImport('{"version":1,"bookmarks":[{"url":"https://x.exa')).toThrow(/truncated/);
  });

  it('rejects a Shelf JSON export of an unknown version', () => {
    expect(() => readImport('{"version":2,"bookmarks":[]}')).toThrow(/version 2/);
  });

  it('decodes UTF-8 with and without BOM', () => {
    const text = 'title,url,time_added,tags,status\nCafé “quotes” 日本,https://x.example/,1600000000,,unread\n';
    for (const input of [Buffer.from(text, 'utf8'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')])]) {
      expect(readImport(input).bookmarks[0]?.title).toBe('Café “quotes” 日本');
    }
  });

  it('falls back to windows-1252 when the bytes are not UTF-8', () => {
    const bytes = Buffer.concat([
      Buffer.from('<DL><DT><A HREF="https://x.example/">Caf', 'latin1'),
      Buffer.from([0xe9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x96, 0x20, 0x80, 0x20, 0x85]),
      Buffer.from('</A></DL>', 'latin1'),
    ]);
    expect(readImport(bytes).bookmarks[0]?.title).toBe('Café “q” – € …');
  });

  it('reads UTF-16 files that carry a BOM', () => {
    const text = '<DL><DT><A HREF="https://x.example/">Ünïcödé</A></DL>';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    expect(decodeInput(le)).toBe(text);
    expect(decodeInput(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toBe(text);
  });

  it('strips a BOM from string input too', () => {
    expect(decodeInput('\uFEFFabc')).toBe('abc');
  });
});
