import { describe, expect, it } from 'vitest';
import type { ParsedImport } from '../../../server/interchange/types.ts';
import { readImport } from '../../support/import-files.ts';
import { haveSharedImports, sharedImport, sharedImportsTitle } from '../../support/shared-fixtures.ts';

/** What the parsers make of the real export files beside the project, in detail (import-real-files.test.ts imports all of them). */
const seconds = (s: number): number => s * 1000;

/** The file, parsed once when a test first asks (a skipped describe reads nothing). */
function parsedFile(name: string): () => ParsedImport {
  let parsed: ParsedImport | undefined;
  return () => (parsed ??= readImport(sharedImport(name)));
}

describe.skipIf(!haveSharedImports)(sharedImportsTitle('reading real export files'), () => {
  describe('Chromium HTML export', () => {
    const parsed = parsedFile('chrome-netscape-nested.html');

    it('reads all 18 bookmarks in 7 folders, nested two deep', () => {
      expect(parsed().format).toBe('netscape-html');
      expect(parsed().skipped).toEqual([]);
      expect(parsed().bookmarks).toHaveLength(18);
      expect(parsed().collections.map((c) => c.path)).toEqual([
        ['Personal toolbar'],
        ['Dev'],
        ['Dev', 'PHP'],
        ['Dev', 'Python'],
        ['MOOC'],
        ['Linux, Unix OS,Other   stuff'],
        ['Self-hosting'],
      ]);
    });

    it('puts each bookmark in its folder with its date and title', () => {
      const byUrl = new Map(parsed().bookmarks.map((b) => [b.url, b]));
      expect(byUrl.get('http://www.jabber.org/')).toMatchObject({
        title: 'jabber.org - the original XMPP instant messaging service',
        collectionPath: ['Personal toolbar'],
        createdAt: seconds(1466010266),
      });
      expect(byUrl.get('https://regexcrossword.com/')?.collectionPath).toEqual([]);
      expect(byUrl.get('https://checkio.org/')?.collectionPath).toEqual(['Dev', 'Python']);
      expect(byUrl.get('https://github.com/lhartikk/ArnoldC')?.collectionPath).toEqual(['Dev']);
      expect(byUrl.get('https://framasoft.org/')?.title).toBe('Framasoft ~ Page portail du réseau');
    });
  });

  describe('Firefox HTML export', () => {
    const parsed = parsedFile('firefox-netscape-nested-2016.html');

    it('skips the three place: queries with their line and reads the other 21', () => {
      expect(parsed().bookmarks).toHaveLength(21);
      expect(parsed().skipped).toEqual([
        { line: 10, reason: 'unsupported URL scheme "place:"' },
        { line: 11, reason: 'unsupported URL scheme "place:"' },
        { line: 72, reason: 'unsupported URL scheme "place:"' },
      ]);
    });

    it('reads TAGS, <DD> descriptions with entities, and folder descriptions as notes', () => {
      const hg = parsed().bookmarks.find((b) => b.url === 'http://hginit.com/');
      expect(hg).toMatchObject({
        tags: ['hg', 'mercurial', 'version', 'control', 'scm', 'python', 'tutorial'],
        description: 'A friendly introduction to the Mercurial DVCS by Joel Spolsky',
        collectionPath: ['Dev'],
        createdAt: seconds(1463686747),
      });
      const meetup = parsed().bookmarks.find((b) => b.url.includes('whistlestudios'));
      expect(meetup?.description).toMatch(/^If running a Meetup feels like a full-time job, you're probably doing it wrong\./);
      const comics = parsed().collections.find((c) => c.path[0] === 'Comics');
      expect(comics?.notes).toBe('Comics, webcomics, fun stuff!');
      expect(parsed().collections.find((c) => c.path[0] === 'Dev')?.notes).toBe('Development & programming');
      expect(parsed().collections.map((c) => c.path)).toContainEqual(['Dev', 'PHP']);
    });

    it('keeps the empty <DD> after a bookmark from becoming a description', () => {
      expect(parsed().bookmarks.find((b) => b.url === 'http://xkcd.com/1332/')?.description).toBe('');
    });

    it('keeps the toolbar folder as a collection', () => {
      expect(parsed().bookmarks.find((b) => b.url.includes('mozilla.org'))?.collectionPath).toEqual(['Personal toolbar']);
    });
  });

  describe('Pocket CSV export', () => {
    it('reads the real export, including the title spanning three lines and no final newline', () => {
      const parsed = parsedFile('pocket-export-multiline.csv');
      expect(parsed().format).toBe('pocket-csv');
      expect(parsed().skipped).toEqual([]);
      expect(parsed().bookmarks).toHaveLength(7);
      expect(parsed().bookmarks[0]).toMatchObject({
        url: 'http://youmightnotneedjquery.com/',
        title: 'You Might Not Need jQuery',
        tags: [],
        collectionPath: [],
        createdAt: 1600322788000,
      });
      expect(parsed().bookmarks[6]?.title).toBe('Des abeilles pour résoudre les « conflits » entre les humains\n\net les élépha');
      expect(parsed().bookmarks[6]?.url).toBe('https://reporterre.net/Des-abeilles-pour-resoudre-les-conflits-entre-les-humains-et-les-elephants');
    });
  });

  describe('Pocket HTML export (ril_export.html)', () => {
    const parsed = parsedFile('pocket-ril_export.html');

    it('reads all 830 links of Unread, with their dates, and entities decoded in titles', () => {
      expect(parsed().format).toBe('pocket-html');
      expect(parsed().skipped).toEqual([]);
      expect(parsed().bookmarks).toHaveLength(830);
      expect(parsed().bookmarks[0]).toMatchObject({
        url: 'https://increment.com/programming-languages/crash-course-in-compilers/',
        title: 'A crash course in compilers – Increment: Programming Languages',
        tags: [],
        createdAt: seconds(1585881748),
      });
      expect(parsed().bookmarks.at(-1)).toMatchObject({ title: "Imaginary Numbers are Real | Galileo's Pendulum", createdAt: seconds(1434439487) });
      expect(parsed().bookmarks.every((b) => b.createdAt !== null && b.collectionPath.length === 0 && b.tags.length === 0)).toBe(true);
    });

    it('keeps hrefs with literal spaces as written', () => {
      expect(parsed().bookmarks.map((b) => b.url)).toContain('https://github.com/nrc/r4cppp/blob/master/control flow.md');
    });
  });

  describe('Chromium profile Bookmarks (JSON)', () => {
    const parsed = parsedFile('chrome-Bookmarks.json');

    it('keeps the bar and its folders, drops the empty roots, skips file: and apt: with their reasons', () => {
      expect(parsed().format).toBe('chromium-json');
      expect(parsed().collections.map((c) => c.path)).toEqual([
        ['Bookmarks bar'],
        ['Bookmarks bar', 'SP'],
        ['Bookmarks bar', 'F+'],
        ['Bookmarks bar', 'Imported From Firefox (2011-09-02, 06:03:50)'],
        ['Bookmarks bar', 'Imported From Firefox (2011-09-02, 06:03:50)', 'Ubuntu and Free Software links'],
        ['Bookmarks bar', 'Imported From Firefox (2011-09-02, 06:03:50)', 'Mozilla Firefox'],
      ]);
      expect(parsed().bookmarks).toHaveLength(14);
      expect(parsed().skipped.filter((s) => s.reason === 'unsupported URL scheme "file:"')).toHaveLength(28);
      expect(parsed().skipped.filter((s) => s.reason === 'unsupported URL scheme "apt:"')).toHaveLength(1);
    });

    it('reads date_added as microseconds since 1601', () => {
      expect(parsed().bookmarks[0]).toMatchObject({ url: 'http://voyagerlive.org/', title: 'Voyager', collectionPath: ['Bookmarks bar'], createdAt: Date.UTC(2015, 7, 22, 1, 21, 39) });
    });
  });

  describe('Firefox bookmarks backup (JSON)', () => {
    const parsed = parsedFile('firefox-bookmarks-backup.json');

    it('puts the menu at the top level and the other roots in folders, and skips the separator without a word', () => {
      expect(parsed().format).toBe('firefox-json');
      expect(parsed().skipped).toEqual([]);
      expect(parsed().bookmarks).toHaveLength(32);
      const byUrl = new Map(parsed().bookmarks.map((b) => [b.url, b]));
      expect(byUrl.get('https://www.flickr.com/')?.collectionPath).toEqual([]);
      expect(byUrl.get('http://www.ubuntu.com/')?.collectionPath).toEqual(['Bookmarks Toolbar']);
      expect(byUrl.get('https://www.facebook.com/')?.collectionPath).toEqual(['Other Bookmarks', 'Social']);
      expect(parsed().collections.map((c) => c.path)).toContainEqual(['Bookmarks Toolbar', 'Mozilla Firefox']);
    });

    it('reads dateAdded as microseconds and keeps titles as written', () => {
      const audi = parsed().bookmarks.find((b) => b.url.startsWith('https://www.audi.com'));
      expect(audi).toMatchObject({ collectionPath: ['Cars'], createdAt: 1599750511000 });
      expect(parsed().bookmarks.map((b) => b.title)).toContain('Cloud Computing Services \u00a0|\u00a0 Google Cloud');
    });
  });
});
