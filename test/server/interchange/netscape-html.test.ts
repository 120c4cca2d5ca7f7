import { describe, expect, it } from 'vitest';
import { parseNetscapeHtml } from '../../../server/interchange/formats/netscape-html.ts';
import { importRangeNow, readImport } from '../../support/import-files.ts';

const readNetscape = (text: string) => parseNetscapeHtml(text, importRangeNow());

const seconds = (s: number): number => s * 1000;

describe('sloppy Netscape files', () => {
  it('needs no doctype, no closing tags and no quotes; tag case does not matter', () => {
    const parsed = readImport(
      [
        '<dl><p>',
        "<dt><h3 add_date=1466008580>Folder</h3>",
        '<dl><p>',
        "<dt><a href=https://unquoted.example/ add_date='1466010266' tags='x,y'>Unquoted</a>",
        '<DT><A HREF="https://upper.example/">Upper',
        '<dt><A hReF="https://mixed.example/">Mixed</a>',
        '</dl><p>',
        '<DT><a href="https://top.example/">Top</A>',
      ].join('\n'),
    );
    expect(parsed.format).toBe('netscape-html');
    expect(parsed.bookmarks.map((b) => [b.url, b.title, b.collectionPath])).toEqual([
      ['https://unquoted.example/', 'Unquoted', ['Folder']],
      ['https://upper.example/', 'Upper', ['Folder']],
      ['https://mixed.example/', 'Mixed', ['Folder']],
      ['https://top.example/', 'Top', []],
    ]);
    expect(parsed.bookmarks[0]).toMatchObject({ tags: ['x', 'y'], createdAt: seconds(1466010266) });
  });

  it('strips a BOM and reads CRLF line endings', () => {
    const text = '\uFEFF<!DOCTYPE NETSCAPE-Bookmark-file-1>\r\n<DL><p>\r\n<DT><A HREF="https://crlf.example/">CRLF</A>\r\n<DD>two\r\nlines\r\n</DL>\r\n';
    const parsed = readImport(Buffer.from(text, 'utf8'));
    expect(parsed.bookmarks).toEqual([expect.objectContaining({ url: 'https://crlf.example/', title: 'CRLF', description: 'two\nlines' })]);
  });

  it('decodes entities in titles, attributes and descriptions, and leaves bare & in URLs alone', () => {
    const parsed = readNetscape(
      [
        '<DL><p>',
        '<DT><A HREF="https://e.example/?a=1&amp;b=2&copy=3" TAGS="c&amp;d,&quot;q&quot;">Tom &amp; Jerry&#39;s &quot;show&quot; &lt;3 &eacute;</A>',
        '<DD>Line &amp; one<br>line two &#8230;',
        '</DL>',
      ].join('\n'),
    );
    expect(parsed.bookmarks[0]).toMatchObject({
      url: 'https://e.example/?a=1&b=2&copy=3',
      title: 'Tom & Jerry\'s "show" <3 é',
      tags: ['c&d', '"q"'],
      description: 'Line & one\nline two …',
    });
  });

  it('skips and counts entries without a usable URL, with a reason and line', () => {
    const parsed = readNetscape(
      [
        '<DL><p>',
        '<DT><A>No href at all</A>',
        '<DT><A HREF="">Empty href</A>',
        '<DT><A HREF="javascript:alert(1)">Bookmarklet</A>',
        '<DD>description of the bookmarklet must not stick to anything',
        '<DT><A HREF="data:text/html,hi">Data</A>',
        '<DT><A HREF="chrome://settings">Chrome settings</A>',
        '<DT><A HREF="about:blank">Blank</A>',
        '<DT><A HREF="place:sort=8">Most visited</A>',
        '<DT><A HREF="not a url">Garbage</A>',
        '<DT><A HREF="http://">No host</A>',
        '<DT><A HREF="  https://kept.example/  ">Kept</A>',
        '</DL>',
      ].join('\n'),
    );
    expect(parsed.bookmarks).toEqual([expect.objectContaining({ url: 'https://kept.example/', title: 'Kept', description: '' })]);
    expect(parsed.skipped).toEqual([
      { line: 2, reason: 'missing URL' },
      { line: 3, reason: 'missing URL' },
      { line: 4, reason: 'unsupported URL scheme "javascript:"' },
      { line: 6, reason: 'unsupported URL scheme "data:"' },
      { line: 7, reason: 'unsupported URL scheme "chrome:"' },
      { line: 8, reason: 'unsupported URL scheme "about:"' },
      { line: 9, reason: 'unsupported URL scheme "place:"' },
      { line: 10, reason: 'invalid URL "not a url"', group: 'invalid URL' },
      { line: 11, reason: 'invalid URL "http://"', group: 'invalid URL' },
    ]);
  });

  it('reads feeds, ignores separators and huge icon attributes', () => {
    const icon = `data:image/png;base64,${'A'.repeat(200_000)}`;
    const parsed = readNetscape(
      [
        '<DL><p>',
        '<DT><A FEEDURL="https://feed.example/rss" HREF="https://site.example/">Live bookmark</A>',
        '<DT><A FEEDURL="https://only-feed.example/atom">Feed only</A>',
        '<HR>',
        `<DT><A HREF="https://icon.example/" ICON="${icon}" ICON_URI="https://icon.example/favicon.ico" PRIVATE="1" TOREAD="1">Icon</A>`,
        '<HR>',
        '</DL>',
      ].join('\n'),
    );
    expect(parsed.bookmarks.map((b) => b.url)).toEqual(['https://site.example/', 'https://only-feed.example/atom', 'https://icon.example/']);
    expect(parsed.skipped).toEqual([]);
  });

  it('reads dates in seconds, milliseconds or microseconds; 0 and empty are no date', () => {
    const dates = ['1466010266', '1466010266123', '1466010266123456', '0', '', ' ', '1466010266.5'];
    const parsed = readNetscape(
      `<DL>${dates.map((d, i) => `<DT><A HREF="https://d.example/${i}" ADD_DATE="${d}">d</A>`).join('\n')}</DL>`,
    );
    expect(parsed.bookmarks.map((b) => b.createdAt)).toEqual([1466010266000, 1466010266123, 1466010266123, null, null, null, 1466010266500]);
    expect(parsed.skipped).toEqual([]);
  });

  it('skips a bookmark whose date is no date in the accepted range, with its reason and line', () => {
    const dates = ['-1', 'yesterday', '99999999999999999999', '9999999999999999', '631151999'];
    const parsed = readNetscape(
      `<DL>\n${dates.map((d, i) => `<DT><A HREF="https://d.example/${i}" ADD_DATE="${d}">d</A>`).join('\n')}\n` +
        '<DT><A HREF="https://d.example/exact" DATA-CREATED="9999999999999999" ADD_DATE="1466010266">exact</A>\n</DL>',
    );
    expect(parsed.bookmarks).toEqual([]);
    const range = /between 1990-01-01 and \d{4}-\d\d-\d\d$/;
    expect(parsed.skipped).toEqual([
      ...dates.map((d, i) => ({ line: i + 2, reason: expect.stringMatching(`^https://d.example/${i}: ADD_DATE "${d}" is not a date `), group: expect.stringMatching(range) })),
      { line: 7, reason: expect.stringMatching(/^https:\/\/d.example\/exact: DATA-CREATED "9999999999999999" is not a date between/), group: expect.stringMatching(range) },
    ]);
  });

  it('falls back to LAST_MODIFIED when ADD_DATE is missing or 0', () => {
    const parsed = readNetscape(
      '<DL><DT><A HREF="https://a.example/" LAST_MODIFIED="1466010266">a</A><DT><A HREF="https://b.example/" ADD_DATE="0" LAST_MODIFIED="1466010267">b</A></DL>',
    );
    expect(parsed.bookmarks.map((b) => b.createdAt)).toEqual([1466010266000, 1466010267000]);
  });

  it('follows folders ten levels deep and records empty ones; a deeper folder is its ancestor at the tenth level', () => {
    const depth = 10;
    let html = '<DL><p>\n';
    for (let level = 1; level <= depth; level += 1) html += `<DT><H3>L${level}</H3>\n<DL><p>\n<DT><H3>Empty ${level}</H3>\n<DL><p>\n</DL><p>\n`;
    html += '<DT><A HREF="https://deep.example/">Deep</A>\n';
    for (let level = 1; level <= depth; level += 1) html += '</DL><p>\n';
    html += '<DT><A HREF="https://root.example/">Root</A>\n</DL><p>\n';
    const parsed = readNetscape(html);
    const deepest = Array.from({ length: depth }, (_, i) => `L${i + 1}`);
    expect(parsed.bookmarks.map((b) => b.collectionPath)).toEqual([deepest, []]);
    expect(parsed.collections).toHaveLength(depth * 2 - 1);
    expect(parsed.collections.map((c) => c.path)).toContainEqual([...deepest.slice(0, 5), 'Empty 5']);
    expect(parsed.collections.map((c) => c.path)).not.toContainEqual([...deepest, 'Empty 10']);
  });

  it('reads 20,000 nested folders as ten levels, and what follows them in the right folder', () => {
    const depth = 20_000;
    const html = `<DL>${'<DT><H3 DATA-ICON="x">a</H3><DD>notes<DL>'.repeat(depth)}<DT><A HREF="https://deep.example/">deep</A>${'</DL>'.repeat(depth)}<DT><A HREF="https://top.example/">top</A></DL>`;
    const parsed = readNetscape(html);
    const ten = Array<string>(10).fill('a');
    expect(parsed.bookmarks.map((b) => [b.url, b.collectionPath])).toEqual([['https://deep.example/', ten], ['https://top.example/', []]]);
    expect(parsed.collections.map((c) => c.path)).toEqual(Array.from({ length: 10 }, (_, i) => ten.slice(0, i + 1)));
    expect(parsed.collections.every((c) => c.notes === 'notes' && c.icon === 'x')).toBe(true);
  });

  it('copes with a missing </DL> by closing at the parent', () => {
    const parsed = readNetscape(
      '<DL><DT><H3>Outer</H3><DL><DT><H3>Inner</H3><DL><DT><A HREF="https://in.example/">in</A></DL><DT><A HREF="https://outer.example/">outer</A></DL><DT><A HREF="https://top.example/">top</A></DL>',
    );
    expect(parsed.bookmarks.map((b) => b.collectionPath)).toEqual([['Outer', 'Inner'], ['Outer'], []]);
  });

  it('reads Safari files: folders without an outer <DL>, including the Reading List', () => {
    const parsed = readImport(
      [
        '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
        '\t<HTML>',
        '\t<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
        '\t<Title>Bookmarks</Title>',
        '\t<H1>Bookmarks</H1>',
        '\t<DT><H3 FOLDED>Favourites</H3>',
        '\t<DL><p>',
        '\t\t<DT><A HREF="https://www.apple.com/">Apple</A>',
        '\t</DL><p>',
        '\t<DT><H3 id="com.apple.ReadingList" FOLDED>Reading List</H3>',
        '\t<DL><p>',
        '\t\t<DT><A HREF="https://later.example/article">Read me later</A>',
        '\t</DL><p>',
        '\t</HTML>',
      ].join('\n'),
    );
    expect(parsed.collections.map((c) => c.path)).toEqual([['Favourites'], ['Reading List']]);
    expect(parsed.bookmarks.map((b) => [b.title, b.collectionPath])).toEqual([
      ['Apple', ['Favourites']],
      ['Read me later', ['Reading List']],
    ]);
  });

  it('reads Pinboard/Delicious style attributes: comma TAGS, PRIVATE, TOREAD', () => {
    const parsed = readImport(
      [
        '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
        '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
        '<TITLE>Pinboard Bookmarks</TITLE>',
        '<H1>Bookmarks</H1>',
        '<DL><p><DT><A HREF="https://pin.example/" ADD_DATE="1348240564" PRIVATE="0" TOREAD="1" TAGS="web dev,javascript,,js/node, javascript">Pin</A>',
        '<DD>Saved with Pinboard',
        '</DL></p>',
      ].join('\n'),
    );
    expect(parsed.bookmarks[0]).toMatchObject({
      tags: ['web dev', 'javascript', 'js/node'],
      description: 'Saved with Pinboard',
      createdAt: seconds(1348240564),
    });
  });

  it('keeps duplicates inside one file as separate entries', () => {
    const parsed = readNetscape('<DL><DT><A HREF="https://dup.example/">one</A><DT><A HREF="https://dup.example/">two</A></DL>');
    expect(parsed.bookmarks.map((b) => b.title)).toEqual(['one', 'two']);
  });

  it('ends a title at the next entry when </A> is missing, and trims it', () => {
    const parsed = readNetscape('<DL>\n<DT><A HREF="https://a.example/">  First\n<DT><A HREF="https://b.example/">Second</A>\n</DL>');
    expect(parsed.bookmarks.map((b) => b.title)).toEqual(['First', 'Second']);
  });

  it('names a nameless folder and merges folders of the same name', () => {
    const parsed = readNetscape(
      '<DL><DT><H3></H3><DL><DT><A HREF="https://u.example/">u</A></DL><DT><H3>Twin</H3><DL><DT><A HREF="https://t1.example/">1</A></DL><DT><H3>Twin</H3><DL><DT><A HREF="https://t2.example/">2</A></DL></DL>',
    );
    expect(parsed.collections.map((c) => c.path)).toEqual([['Untitled folder'], ['Twin']]);
    expect(parsed.bookmarks.map((b) => b.collectionPath)).toEqual([['Untitled folder'], ['Twin'], ['Twin']]);
  });

  it('keeps a single wrapping root folder (see the decision in netscape-html.ts)', () => {
    const parsed = readNetscape('<H1>Bookmarks</H1><DL><DT><H3>Bookmarks</H3><DL><DT><A HREF="https://w.example/">w</A></DL></DL>');
    expect(parsed.bookmarks[0]?.collectionPath).toEqual(['Bookmarks']);
  });

  it('ignores content outside bookmarks: scripts, comments, headings', () => {
    const parsed = readNetscape(
      '<!-- <DT><A HREF="https://comment.example/">c</A> --><TITLE>T</TITLE><H1>H</H1><DL><DT><A HREF="https://real.example/">r</A></DL><script>var a = "<DT><A HREF=x>";</script>',
    );
    expect(parsed.bookmarks.map((b) => b.url)).toEqual(['https://real.example/']);
  });
});
