import { importDateRange } from '../../server/interchange/dates.ts';
import { parseImport } from '../../server/interchange/parse.ts';
import type { ParsedImport } from '../../server/interchange/types.ts';

/** The dates an import started now accepts. */
export const importRangeNow = () => importDateRange(Date.now());

/** parseImport as an import started now reads the file. */
export const readImport = (input: Buffer | string): ParsedImport => parseImport(input, importRangeNow());

/*
 * Import files the project writes itself, one per format, each with the quirks real
 * exporters have (seen in the real files the tests also read when they are there). Every
 * file comes with what a correct import makes of it, so the tests compare against that.
 */

/** What importing a generated file gives: every http(s) URL, folder path and tag name in it. */
export interface GeneratedFile {
  name: string;
  content: string | Buffer;
  format: ParsedImport['format'];
  /** Imported bookmarks: url, collection path, tags (sorted), createdAt in ms or null. */
  bookmarks: { url: string; title: string; path: string[]; tags: string[]; createdAt: number | null }[];
  /** Every collection, parents first. */
  collections: string[][];
  /** The reasons of the skipped entries. */
  skipped: RegExp[];
}

const s = (seconds: number): number => seconds * 1000;

/**
 * A browser's Netscape file: a BOM, CRLF, nested folders three deep, an empty folder and a
 * valueless FOLDED attribute (IE), a toolbar folder, <DD> notes on a folder and a bookmark,
 * a separator on the line of the next entry, dates in seconds, milliseconds and microseconds,
 * 0 with LAST_MODIFIED, a place: query, a bookmarklet, entities (double-escaped too), a raw
 * '<' inside an attribute (Raindrop's COVER), a folder name with a slash and commas.
 */
export function netscapeHtml(): GeneratedFile {
  const lines = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
    '<TITLE>Bookmarks</TITLE>',
    '<H1>Bookmarks Menu</H1>',
    '<DL><p>',
    '    <DT><H3 ADD_DATE="1466008580" LAST_MODIFIED="1466010266" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>',
    '    <DL><p>',
    '        <DT><A HREF="https://toolbar.example/" ADD_DATE="1466010266" ICON="data:image/png;base64,iVBORw0KGgo=">Toolbar &amp; more</A>',
    '        <DT><A HREF="place:sort=8&amp;maxResults=10">Most Visited</A>',
    '    </DL><p>',
    '    <DT><H3 FOLDED ADD_DATE="1466008580">Dev</H3>',
    '    <DD>Development &amp; programming',
    '    <DL><p>',
    '        <DT><H3 ADD_DATE="0">Lang/PHP, Python</H3>',
    '        <DL><p>',
    '            <DT><H3>Deep</H3>',
    '            <DL><p>',
    '                <DT><A HREF="https://deep.example/a?x=1&amp;y=2" ADD_DATE="1466010266123" TAGS="php,web dev">Deep &amp;#8230; one</A>',
    '                <DD>A note &#39;quoted&#39; &quot;twice&quot;',
    '            </DL><p>',
    '        </DL><p>',
    '        <HR>    <DT><A HREF="https://micro.example/" ADD_DATE="1515515697780642">Microseconds</A>',
    '        <DT><A HREF="https://lastmod.example/" ADD_DATE="0" LAST_MODIFIED="1600000000" COVER="<screenshot>">Only LAST_MODIFIED</A>',
    '    </DL><p>',
    '    <DT><H3 ADD_DATE="1466008580">Empty</H3>',
    '    <DL><p>',
    '    </DL><p>',
    '    <DT><A HREF="javascript:alert(1)">Bookmarklet</A>',
    '    <DT><A HREF="https://nodate.example/" >No date</A>',
    '</DL>',
  ];
  return {
    name: 'netscape-nested.html',
    content: Buffer.from(`\uFEFF${lines.join('\r\n')}`, 'utf8'),
    format: 'netscape-html',
    bookmarks: [
      { url: 'https://toolbar.example/', title: 'Toolbar & more', path: ['Bookmarks bar'], tags: [], createdAt: s(1466010266) },
      { url: 'https://deep.example/a?x=1&y=2', title: 'Deep &#8230; one', path: ['Dev', 'Lang/PHP, Python', 'Deep'], tags: ['php', 'web dev'], createdAt: 1466010266123 },
      { url: 'https://micro.example/', title: 'Microseconds', path: ['Dev'], tags: [], createdAt: 1515515697781 },
      { url: 'https://lastmod.example/', title: 'Only LAST_MODIFIED', path: ['Dev'], tags: [], createdAt: s(1600000000) },
      { url: 'https://nodate.example/', title: 'No date', path: [], tags: [], createdAt: null },
    ],
    collections: [['Bookmarks bar'], ['Dev'], ['Dev', 'Lang/PHP, Python'], ['Dev', 'Lang/PHP, Python', 'Deep'], ['Empty']],
    skipped: [/^unsupported URL scheme "place:"$/, /^unsupported URL scheme "javascript:"$/],
  };
}

/**
 * Pocket's CSV: a quoted title over three lines with an empty one inside, a comma and "" in
 * titles, an entity left in a title, '|' tags, status archive, a #fragment, no final newline.
 */
export function pocketCsv(): GeneratedFile {
  const rows = [
    'title,url,time_added,tags,status',
    '"Des abeilles, pour « résoudre »\n\net les élépha",https://bees.example/article#utm_source=x,1600322788,,unread',
    '"Isn&#39;t it ""quoted""?",https://quoted.example/,1585881748,dev|news,archive',
    'https://bare.example/,https://bare.example/,1434439487,,unread',
  ];
  return {
    name: 'pocket.csv',
    content: rows.join('\n'),
    format: 'pocket-csv',
    bookmarks: [
      { url: 'https://bees.example/article#utm_source=x', title: 'Des abeilles, pour « résoudre »\n\net les élépha', path: [], tags: [], createdAt: s(1600322788) },
      { url: 'https://quoted.example/', title: 'Isn&#39;t it "quoted"?', path: [], tags: ['archived', 'dev', 'news'], createdAt: s(1585881748) },
      { url: 'https://bare.example/', title: 'https://bare.example/', path: [], tags: [], createdAt: s(1434439487) },
    ],
    collections: [],
    skipped: [],
  };
}

/** Instapaper's CSV: CRLF, Tags as a JSON array in a quoted cell, a Selection with commas, built-in and user folders. */
export function instapaperCsv(): GeneratedFile {
  const rows = [
    'URL,Title,Selection,Folder,Timestamp,Tags',
    'https://starred.example/,Starred one,,Starred,1700000000,"[""ai"", ""interp""]"',
    'https://archived.example/,"Archived, with comma","A long selection, with commas, and ""quotes""",Archive,1700000001,[]',
    'https://unread.example/,Unread,,Unread,1700000002,"[""*""]"',
    'https://mine.example/,In my folder,,Reading / Later,1700000003,',
    'https://starred.example/,Starred one again,,Starred,1700000004,[]',
  ];
  return {
    name: 'instapaper.csv',
    content: `${rows.join('\r\n')}\r\n`,
    format: 'instapaper-csv',
    bookmarks: [
      { url: 'https://starred.example/', title: 'Starred one', path: [], tags: ['ai', 'interp'], createdAt: s(1700000000) },
      { url: 'https://archived.example/', title: 'Archived, with comma', path: [], tags: ['archived'], createdAt: s(1700000001) },
      { url: 'https://unread.example/', title: 'Unread', path: [], tags: ['*'], createdAt: s(1700000002) },
      { url: 'https://mine.example/', title: 'In my folder', path: ['Reading / Later'], tags: [], createdAt: s(1700000003) },
      { url: 'https://starred.example/', title: 'Starred one again', path: [], tags: [], createdAt: s(1700000004) },
    ],
    collections: [['Reading / Later']],
    skipped: [],
  };
}

/** Raindrop.io's CSV: "a, b" tags, ISO dates with milliseconds, Parent/Child folders, Unsorted, a bad URL. */
export function raindropCsv(): GeneratedFile {
  const rows = [
    'id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite',
    '1,First,A note,An excerpt,https://r1.example/,pinboard1,"search, tools",2024-05-01T14:00:00.000Z,,,false',
    '2,Second,,,https://r2.example/,Work / Tools,,2024-05-02T14:00:00.000Z,,,true',
    '3,Third,,,https://r3.example/,Unsorted,,,,,',
    '4,Broken,,,htp:/nope,Unsorted,,,,,',
  ];
  return {
    name: 'raindrop.csv',
    content: `${rows.join('\n')}\n`,
    format: 'raindrop-csv',
    bookmarks: [
      { url: 'https://r1.example/', title: 'First', path: ['pinboard1'], tags: ['search', 'tools'], createdAt: Date.UTC(2024, 4, 1, 14) },
      { url: 'https://r2.example/', title: 'Second', path: ['Work', 'Tools'], tags: [], createdAt: Date.UTC(2024, 4, 2, 14) },
      { url: 'https://r3.example/', title: 'Third', path: [], tags: [], createdAt: null },
    ],
    collections: [['pinboard1'], ['Work'], ['Work', 'Tools']],
    skipped: [/^invalid URL "htp:\/nope"$|^unsupported URL scheme "htp:"$/],
  };
}

/**
 * Pocket's HTML export: Unread and Read Archive sections, the first <li> indented and the
 * others not, a literal space and raw non-ASCII in hrefs, &amp; in an href, &#039; in a title,
 * comma-separated tags, an empty tags="".
 */
export function pocketHtml(): GeneratedFile {
  const content = [
    '<!DOCTYPE html>',
    '<html>',
    '\t<!--So long and thanks for all the fish-->',
    '\t<head>',
    '\t\t<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />',
    '\t\t<title>Pocket Export</title>',
    '\t</head>',
    '\t<body>',
    '\t\t<h1>Unread</h1>',
    '\t\t<ul>',
    '\t\t\t<li><a href="https://files.example/Draft Model (13).pdf?dl=0" time_added="1585881748" tags="">Draft Model</a></li>',
    '<li><a href="https://wiki.example/Inclusion–exclusion_principle" time_added="1585860033" tags="math,wiki">Inclusion–exclusion</a></li>',
    '<li><a href="https://q.example/?a=1&amp;b=2" time_added="1434439487" tags="">Galileo&#039;s Pendulum</a></li>',
    '\t\t</ul>',
    '\t\t<h1>Read Archive</h1>',
    '\t\t<ul>',
    '<li><a href="https://done.example/" time_added="1482227779" tags="read">https://done.example/</a></li>',
    '\t\t</ul>',
    '\t</body>',
    '</html>',
  ].join('\n');
  return {
    name: 'ril_export.html',
    content,
    format: 'pocket-html',
    bookmarks: [
      { url: 'https://files.example/Draft Model (13).pdf?dl=0', title: 'Draft Model', path: [], tags: [], createdAt: s(1585881748) },
      { url: 'https://wiki.example/Inclusion–exclusion_principle', title: 'Inclusion–exclusion', path: [], tags: ['math', 'wiki'], createdAt: s(1585860033) },
      { url: 'https://q.example/?a=1&b=2', title: "Galileo's Pendulum", path: [], tags: [], createdAt: s(1434439487) },
      { url: 'https://done.example/', title: 'https://done.example/', path: [], tags: ['archived', 'read'], createdAt: s(1482227779) },
    ],
    collections: [],
    skipped: [],
  };
}

/** Microseconds since 1601-01-01, as Chromium writes date_added. */
const chromiumDate = (ms: number): string => String((ms - Date.UTC(1601, 0, 1)) * 1000);

/**
 * Chromium's profile `Bookmarks`: three roots (the bar with nested folders, "Other bookmarks"
 * whose content is the top level, an empty "Mobile bookmarks"), an empty user folder,
 * file:// and apt: URLs, date_added "0", 3-space indentation.
 */
export function chromiumJson(): GeneratedFile {
  const url = (name: string, href: string, ms: number | null) => ({ date_added: ms === null ? '0' : chromiumDate(ms), id: href, name, type: 'url', url: href });
  const folder = (name: string, children: unknown[]) => ({ children, date_added: chromiumDate(s(1316000000)), date_modified: '0', id: name, name, type: 'folder' });
  const profile = {
    checksum: '159ce0a29c234510ba09c3091e0b513b',
    roots: {
      bookmark_bar: folder('Bookmarks bar', [
        url('Voyager', 'http://voyager.example/', s(1440206499)),
        folder('SP', [url('0', 'file:///.startpage/0/index.html', s(1440206567)), url('Flash', 'apt://flashplugin-installer', s(1440206567))]),
        folder('Imported From Firefox (2011-09-02, 06:03:50)', [folder('F+', [url('Deep', 'https://deep.example/', s(1314943430))]), folder('Nothing', [])]),
      ]),
      other: folder('Other bookmarks', [url('Loose', 'https://loose.example/', null)]),
      synced: folder('Mobile bookmarks', []),
    },
    version: 1,
  };
  return {
    name: 'Bookmarks',
    content: JSON.stringify(profile, null, 3),
    format: 'chromium-json',
    bookmarks: [
      { url: 'http://voyager.example/', title: 'Voyager', path: ['Bookmarks bar'], tags: [], createdAt: s(1440206499) },
      { url: 'https://deep.example/', title: 'Deep', path: ['Bookmarks bar', 'Imported From Firefox (2011-09-02, 06:03:50)', 'F+'], tags: [], createdAt: s(1314943430) },
      { url: 'https://loose.example/', title: 'Loose', path: [], tags: [], createdAt: null },
    ],
    collections: [
      ['Bookmarks bar'],
      ['Bookmarks bar', 'SP'],
      ['Bookmarks bar', 'Imported From Firefox (2011-09-02, 06:03:50)'],
      ['Bookmarks bar', 'Imported From Firefox (2011-09-02, 06:03:50)', 'F+'],
      ['Bookmarks bar', 'Imported From Firefox (2011-09-02, 06:03:50)', 'Nothing'],
    ],
    skipped: [/^unsupported URL scheme "file:"$/, /^unsupported URL scheme "apt:"$/],
  };
}

/**
 * Firefox's backup JSON: placesRoot with the menu (its content at the top level), toolbar,
 * unfiled and an empty mobile root, a separator, a place: query, tags, a description
 * annotation, a tags root repeating a tagged bookmark, NBSP in a title, compact as Firefox writes it.
 */
export function firefoxJson(): GeneratedFile {
  let id = 0;
  const place = (title: string, uri: string, ms: number, extra: Record<string, unknown> = {}) => ({
    guid: `g${++id}`, title, index: 0, dateAdded: ms * 1000, lastModified: ms * 1000, id, typeCode: 1, type: 'text/x-moz-place', uri, ...extra,
  });
  const container = (title: string, children: unknown[], root?: string) => ({
    guid: `c${++id}`, title, index: 0, dateAdded: s(1659184459) * 1000, lastModified: s(1659184459) * 1000, id, typeCode: 2, type: 'text/x-moz-place-container', ...(root ? { root } : {}), children,
  });
  const separator = { guid: 'sep', title: '', index: 1, dateAdded: s(1754222047) * 1000, lastModified: s(1754222047) * 1000, id: 999, typeCode: 3, type: 'text/x-moz-place-separator' };
  const tagged = place('Cloud\u00a0|\u00a0Google', 'https://cloud.example/', s(1599750511), {
    tags: 'cloud,work',
    annos: [{ name: 'bookmarkProperties/description', flags: 0, expires: 4, value: 'Cloud services' }],
  });
  const tree = container(
    '',
    [
      container('menu', [container('Cars', [place('Audi', 'https://audi.example/', s(1599750511)), separator, place('BMW', 'http://bmw.example/', s(1599750498))]), tagged], 'bookmarksMenuFolder'),
      container('toolbar', [place('Getting Started', 'https://start.example/', s(1599750431)), place('Recent Tags', 'place:type=6&sort=14&maxResults=10', s(1599750431))], 'toolbarFolder'),
      container('tags', [container('cloud', [place('', 'https://cloud.example/', s(1599750511))])], 'tagsFolder'),
      container('unfiled', [container('Social', [container('Empty', [])])], 'unfiledBookmarksFolder'),
      container('mobile', [], 'mobileFolder'),
    ],
    'placesRoot',
  );
  return {
    name: 'bookmarks-backup.json',
    content: JSON.stringify(tree),
    format: 'firefox-json',
    bookmarks: [
      { url: 'https://audi.example/', title: 'Audi', path: ['Cars'], tags: [], createdAt: s(1599750511) },
      { url: 'http://bmw.example/', title: 'BMW', path: ['Cars'], tags: [], createdAt: s(1599750498) },
      { url: 'https://cloud.example/', title: 'Cloud\u00a0|\u00a0Google', path: [], tags: ['cloud', 'work'], createdAt: s(1599750511) },
      { url: 'https://start.example/', title: 'Getting Started', path: ['Bookmarks Toolbar'], tags: [], createdAt: s(1599750431) },
    ],
    collections: [['Bookmarks Toolbar'], ['Other Bookmarks'], ['Cars'], ['Other Bookmarks', 'Social'], ['Other Bookmarks', 'Social', 'Empty']],
    skipped: [/^unsupported URL scheme "place:"$/],
  };
}

export const GENERATED_FILES = [netscapeHtml, pocketCsv, instapaperCsv, raindropCsv, pocketHtml, chromiumJson, firefoxJson];
