import { describe, expect, it } from 'vitest';
import { readImport } from '../../support/import-files.ts';

describe('Pocket CSV', () => {
  it('splits tags on |, accepts columns in any order, CRLF, and an empty title; status archive becomes a tag', () => {
    const parsed = readImport(
      'status,tags,url,time_added,title\r\nunread,dev/js|news| |news,https://a.example/,1600000000,\r\narchive,,https://b.example/,,B\r\n',
    );
    expect(parsed.format).toBe('pocket-csv');
    expect(parsed.bookmarks.map((b) => [b.url, b.title, b.tags, b.createdAt])).toEqual([
      ['https://a.example/', '', ['dev/js', 'news'], 1600000000000],
      ['https://b.example/', 'B', ['archived'], null],
    ]);
  });

  it('skips rows without a usable URL and malformed rows, with their line', () => {
    const parsed = readImport(
      [
        'title,url,time_added,tags,status',
        'No url,,1600000000,,unread',
        'Script,javascript:void(0),1600000000,,unread',
        'Stray "quotes" are tolerated,https://good.example/,1600000000,,unread',
        ',,,,',
        '"Never closed,https://lost.example/,1600000000,,unread',
        'Swallowed by the open quote,https://swallowed.example/,1600000000,,unread',
      ].join('\n'),
    );
    expect(parsed.bookmarks.map((b) => [b.title, b.url])).toEqual([['Stray "quotes" are tolerated', 'https://good.example/']]);
    expect(parsed.skipped).toEqual([
      { line: 2, reason: 'missing URL' },
      { line: 3, reason: 'unsupported URL scheme "javascript:"' },
      { line: 7, reason: expect.stringMatching(/^malformed CSV row: Quote Not Closed/) },
    ]);
  });
});

describe('Instapaper CSV', () => {
  it('reads the newer export with Timestamp and JSON Tags; Starred becomes a favourite, Archive a tag', () => {
    const parsed = readImport(
      [
        'URL,Title,Selection,Folder,Timestamp,Tags',
        'https://a.example/,"Cours d\'assises : «On efface le peuple»",,Unread,1700000000,"[]"',
        'https://b.example/,AMP and React+Redux: Why Not?,A selected sentence.,Archive,1700000001,"[""react"",""javascript""]"',
        'https://c.example/,Why Foursquare / Swarm,,Starred,1700000002,"[""social""]"',
        'https://d.example/,"Dis donc, Donald",,Tech / Reading,1700000003,',
      ].join('\n'),
    );
    expect(parsed.format).toBe('instapaper-csv');
    expect(parsed.bookmarks.map((b) => [b.url, b.isFavorite, b.collectionPath, b.tags, b.createdAt])).toEqual([
      ['https://a.example/', false, [], [], 1700000000000],
      ['https://b.example/', false, [], ['react', 'javascript', 'archived'], 1700000001000],
      ['https://c.example/', true, [], ['social'], 1700000002000],
      ['https://d.example/', false, ['Tech / Reading'], [], 1700000003000],
    ]);
    expect(parsed.bookmarks[1]?.description).toBe('A selected sentence.');
    expect(parsed.collections).toEqual([{ path: ['Tech / Reading'], icon: '', color: '', notes: '' }]);
  });

  it('reads the older export without Timestamp or Tags', () => {
    const parsed = readImport('URL,Title,Selection,Folder\nhttps://x.example/,X,,test_tag\n');
    expect(parsed.format).toBe('instapaper-csv');
    expect(parsed.bookmarks[0]).toMatchObject({ collectionPath: ['test_tag'], createdAt: null, tags: [] });
  });

  it('accepts a comma list where the Tags cell is not JSON', () => {
    const parsed = readImport('URL,Title,Selection,Folder,Timestamp,Tags\nhttps://x.example/,X,,Unread,,"a, b"\n');
    expect(parsed.bookmarks[0]?.tags).toEqual(['a', 'b']);
  });
});

describe('Raindrop.io CSV', () => {
  const header = 'id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite';

  it('maps excerpt, note, nested folders, tags, ISO dates and favourites', () => {
    const parsed = readImport(
      [
        header,
        '1,Title A,My note,The excerpt,https://a.example/,Dev/JS,"js, web",2021-08-26T12:15:25.000Z,https://cover/x.png,,true',
        '2,Title B,,,https://b.example/,Dev / JS / Deep,,1629980125,,,false',
        '3,Title C,,,https://c.example/,Unsorted,,,,,',
        '4,Title D,note,,https://d.example/,Reading,,,,"Highlight one\nHighlight two",false',
        '5,Title E,,,https://e.example/,Reading,,not a date,,,false',
      ].join('\n'),
    );
    expect(parsed.skipped).toEqual([
      {
        // the highlights of row 5 span two lines
        line: 7,
        reason: expect.stringMatching(/^https:\/\/e.example\/: created "not a date" is not a date between 1990-01-01 and /),
        group: expect.stringMatching(/^a date not between 1990-01-01 and /),
      },
    ]);
    expect(parsed.format).toBe('raindrop-csv');
    expect(parsed.bookmarks[0]).toEqual({
      url: 'https://a.example/',
      title: 'Title A',
      description: 'The excerpt',
      note: 'My note',
      type: 'link',
      isFavorite: true,
      tags: ['js', 'web'],
      collectionPath: ['Dev', 'JS'],
      createdAt: Date.UTC(2021, 7, 26, 12, 15, 25),
    });
    expect(parsed.bookmarks.map((b) => b.collectionPath)).toEqual([['Dev', 'JS'], ['Dev', 'JS', 'Deep'], [], ['Reading']]);
    expect(parsed.bookmarks[1]?.createdAt).toBe(1629980125000);
    expect(parsed.bookmarks[3]).toMatchObject({ createdAt: null, note: 'note\n\nHighlights:\nHighlight one\nHighlight two' });
    expect(parsed.collections.map((c) => c.path)).toEqual([['Dev'], ['Dev', 'JS'], ['Dev', 'JS', 'Deep'], ['Reading']]);
  });

  it('skips rows with bad URLs and keeps duplicates', () => {
    const parsed = readImport(
      [header, '1,a,,,https://dup.example/,,,,,,', '2,b,,,https://dup.example/,,,,,,', '3,c,,,ftp//nope,,,,,,'].join('\n'),
    );
    expect(parsed.bookmarks.map((b) => b.title)).toEqual(['a', 'b']);
    expect(parsed.skipped).toEqual([{ line: 4, reason: 'invalid URL "ftp//nope"', group: 'invalid URL' }]);
  });
});
