import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../support/server.ts';
import { haveSharedImports, sharedImport, sharedImportsTitle } from '../support/shared-fixtures.ts';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { allBookmarks, collectionPaths, importFile } from './jobs-fixtures.ts';

/**
 * The real export files beside the project, imported through the API: every http(s) URL in
 * a file is imported or counted as a duplicate, everything else is skipped with its reason,
 * and every folder and tag is there. The URLs are found here without the importer (a regex
 * over the HTML, a CSV parse, a walk of the JSON tree); the other counts are those the
 * files' SOURCES.md gives, made with no importer at all.
 */
interface Expected {
  format: string;
  /** Entries in the file (SOURCES.md). */
  entries: number;
  /** Of those, not http(s): skipped, counted by reason. */
  skipped: Record<string, number>;
  /** The same URL twice in the file: the second is a duplicate. */
  duplicates?: number;
  collections: number;
  /** Distinct tags on the imported bookmarks. */
  tags: number;
}

const FILES: Record<string, Expected> = {
  'chrome-netscape-nested.html': { format: 'netscape-html', entries: 18, skipped: {}, collections: 7, tags: 0 },
  'firefox-netscape-nested-2016.html': { format: 'netscape-html', entries: 24, skipped: { 'unsupported URL scheme "place:"': 3 }, collections: 6, tags: 90 },
  'firefox-netscape-cyrillic-2026.html': { format: 'netscape-html', entries: 9, skipped: {}, collections: 5, tags: 2 },
  'ie11-netscape-nested-bom.html': { format: 'netscape-html', entries: 27, skipped: {}, collections: 9, tags: 0 },
  'safari-netscape-readinglist.html': { format: 'netscape-html', entries: 5, skipped: { 'unsupported URL scheme "javascript:"': 1 }, collections: 3, tags: 0 },
  'google-bookmarks-no-doctype.html': { format: 'netscape-html', entries: 6, skipped: {}, collections: 1, tags: 0 },
  'raindrop-netscape-2021.html': { format: 'netscape-html', entries: 21, skipped: {}, collections: 2, tags: 4 },
  'raindrop-netscape-2026.html': { format: 'netscape-html', entries: 5, skipped: {}, collections: 1, tags: 7 },
  // Read Archive is empty in this file, so no bookmark gets the tag archived.
  'pocket-ril_export.html': { format: 'pocket-html', entries: 830, skipped: {}, collections: 0, tags: 0 },
  'raindrop-export.csv': { format: 'raindrop-csv', entries: 5, skipped: {}, collections: 1, tags: 7 },
  // 16 tags, and archived for the 195 rows of status archive.
  'pocket-export.csv': { format: 'pocket-csv', entries: 1535, skipped: {}, collections: 0, tags: 17 },
  'pocket-export-multiline.csv': { format: 'pocket-csv', entries: 7, skipped: {}, collections: 0, tags: 1 },
  // Starred, Unread and Archive are Instapaper's reading states: a favorite, nothing, the tag archived.
  'instapaper-export.csv': { format: 'instapaper-csv', entries: 536, skipped: {}, duplicates: 1, collections: 0, tags: 19 },
  // 8 folders: "Other bookmarks" and "Mobile bookmarks" are empty roots, the bookmark bar and 5 user folders are collections.
  'chrome-Bookmarks.json': { format: 'chromium-json', entries: 43, skipped: { 'unsupported URL scheme "file:"': 28, 'unsupported URL scheme "apt:"': 1 }, collections: 6, tags: 0 },
  // 12 containers: placesRoot is none, the menu's content is the top level; toolbar, unfiled, mobile and 7 user folders.
  'firefox-bookmarks-backup.json': { format: 'firefox-json', entries: 32, skipped: {}, collections: 10, tags: 0 },
};

const byUrl = (bookmarks: Bookmark[]): Map<string, Bookmark> => new Map(bookmarks.map((b) => [b.url, b]));

const decodeHtml = (text: string): string =>
  text.replace(/&(amp|quot|#0?39);/g, (_, name: string) => ({ amp: '&', quot: '"', '#39': "'", '#039': "'" })[name] ?? '');

/** Every http(s) URL the file holds, read without the importer. */
function webUrls(name: string, content: Buffer): string[] {
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  let urls: string[];
  if (name.endsWith('.html')) urls = [...text.matchAll(/<a\s[^>]*?\bhref\s*=\s*"([^"]*)"/gi)].map(([, href]) => decodeHtml(href!));
  else if (name.endsWith('.csv')) {
    const rows = parse(text, { columns: (header: string[]) => header.map((h) => h.toLowerCase()), relax_quotes: true }) as Record<string, string>[];
    urls = rows.map((row) => row.url ?? '');
  } else {
    urls = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === 'object' && node !== null) {
        const { url, uri, children } = node as { url?: unknown; uri?: unknown; children?: unknown };
        if (typeof url === 'string') urls.push(url);
        if (typeof uri === 'string') urls.push(uri);
        walk(children ?? Object.values(node).filter((v) => typeof v === 'object'));
      }
    };
    walk(JSON.parse(text));
  }
  return urls.map((u) => u.trim()).filter((u) => /^https?:\/\//i.test(u));
}

describe.skipIf(!haveSharedImports)(sharedImportsTitle('importing every real export file'), () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ raiseLimits: true });
  });
  afterAll(() => t.close());

  it.each(Object.entries(FILES))('%s', async (name, expected) => {
    const content = sharedImport(name);
    const urls = webUrls(name, content);
    const skipped = Object.values(expected.skipped).reduce((a, b) => a + b, 0);
    expect(urls, 'http(s) URLs found without the importer').toHaveLength(expected.entries - skipped);

    const u = await t.user();
    const job = await importFile(t, u, content);
    expect(job).toMatchObject({ status: 'completed', format: expected.format });
    const duplicates = expected.duplicates ?? 0;
    expect(job.result).toEqual({ imported: urls.length - duplicates, skipped, duplicates });
    expect(Object.fromEntries((job.skippedCounts ?? []).map((c) => [c.reason, c.count]))).toEqual(expected.skipped);

    const bookmarks = await allBookmarks(u.api);
    expect(new Set(bookmarks.map((b) => b.url))).toEqual(new Set(urls));
    expect(new Set(bookmarks.flatMap((b) => b.tags)).size).toBe(expected.tags);
    const { collections } = await collectionPaths(u.api);
    expect(collections).toHaveLength(expected.collections);
  });

  it('gives each folder of a Netscape file its collection, by name', async () => {
    for (const name of Object.keys(FILES).filter((n) => FILES[n]!.format === 'netscape-html')) {
      const folders = [...sharedImport(name).toString('utf8').matchAll(/<h3[^>]*>([^<]*)<\/h3>/gi)].map(([, title]) => decodeHtml(title!).trim());
      const u = await t.user();
      await importFile(t, u, sharedImport(name));
      const { collections } = await collectionPaths(u.api);
      expect(collections.map((c) => c.name).sort(), name).toEqual(folders.sort());
    }
  });

  it('imports the Chromium export: nested folders, titles and dates', async () => {
    const u = await t.user();
    const job = await importFile(t, u, sharedImport('chrome-netscape-nested.html'));
    expect(job).toMatchObject({ status: 'completed', format: 'netscape-html', result: { imported: 18, skipped: 0, duplicates: 0 } });
    const { collections, paths } = await collectionPaths(u.api);
    expect(collections.map((c) => paths.get(c.id)!.join('/')).sort()).toEqual(
      ['Dev', 'Dev/PHP', 'Dev/Python', 'Linux, Unix OS,Other   stuff', 'MOOC', 'Personal toolbar', 'Self-hosting'].sort(),
    );
    const bookmarks = byUrl(await allBookmarks(u.api));
    expect(bookmarks.size).toBe(18);
    const psr = bookmarks.get('http://www.php-fig.org/psr/')!;
    expect(psr).toMatchObject({ title: 'PHP Standards Recommendations - PHP-FIG', createdAt: new Date(1466013084_000).toISOString() });
    expect(paths.get(psr.collectionId!)).toEqual(['Dev', 'PHP']);
    expect(bookmarks.get('https://regexcrossword.com/')).toMatchObject({ title: 'Regex Crossword', collectionId: null });
    expect(paths.get(bookmarks.get('http://www.jabber.org/')!.collectionId!)).toEqual(['Personal toolbar']);
  });

  it('imports the Firefox export: tags, folder notes, and skips place: queries', async () => {
    const u = await t.user();
    const job = await importFile(t, u, sharedImport('firefox-netscape-nested-2016.html'));
    expect(job).toMatchObject({ status: 'completed', result: { imported: 21, skipped: 3, duplicates: 0 } });
    expect(job.skippedReasons).toHaveLength(3);
    expect(job.skippedReasons!.every((r) => /place:/.test(r.reason) && typeof r.line === 'number')).toBe(true);
    const { collections, paths } = await collectionPaths(u.api);
    expect(collections.find((c) => c.name === 'Comics')!.notes).toBe('Comics, webcomics, fun stuff!');
    expect(collections.find((c) => c.name === 'Dev')!.notes).toBe('Development & programming');
    const bookmarks = byUrl(await allBookmarks(u.api));
    expect(bookmarks.get('http://xkcd.com/1332/')).toMatchObject({
      title: 'xkcd: Slippery Slope',
      tags: ['respect', 'slope', 'webcomic', 'xkcd'],
      createdAt: new Date(1463687035_000).toISOString(),
    });
    expect(paths.get(bookmarks.get('https://github.com/kafene/netscape-bookmark-parser')!.collectionId!)).toEqual(['Dev', 'PHP']);
    expect(bookmarks.get('http://www.commitstrip.com/en/2016/02/10/true-story-one-code-review-too-many/')!.description).toBe(
      'The blog relating the daily life of web agency developers',
    );
  });

  it('imports the Pocket CSV export, multi-line title included', async () => {
    const u = await t.user();
    const job = await importFile(t, u, sharedImport('pocket-export-multiline.csv'));
    expect(job).toMatchObject({ status: 'completed', format: 'pocket-csv', result: { imported: 7, skipped: 0, duplicates: 0 } });
    const bookmarks = byUrl(await allBookmarks(u.api));
    expect(bookmarks.get('http://youmightnotneedjquery.com/')).toMatchObject({
      title: 'You Might Not Need jQuery',
      collectionId: null,
      createdAt: new Date(1600322788_000).toISOString(),
    });
    expect(bookmarks.get('https://reporterre.net/Des-abeilles-pour-resoudre-les-conflits-entre-les-humains-et-les-elephants')!.title).toMatch(
      /^Des abeilles pour résoudre les « conflits » entre les humains\s+et les élépha$/,
    );
  });
});
