import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { type ShelfProcess, type Site, dataOf, startShelf, startSite } from '../browser/support.ts';
import { signIn } from '../scenarios/sign-in.ts';
import type { UserPage } from '../scenarios/user.ts';
import { inBrowserChrome } from './browser-chrome.ts';
import { type FirefoxUser, launchFirefoxUser } from './support.ts';

/**
 * Importing Firefox's own bookmarks: its tree has roots Chromium lacks (the menu, "Other Bookmarks" (unfiled),
 * the mobile bookmarks), separators, and place: queries (saved searches of its history, not web pages).
 */
describe('importing Firefox’s own bookmarks', () => {
  let shelf: ShelfProcess;
  let site: Site;
  let user: FirefoxUser;
  let options: UserPage;

  beforeAll(async () => {
    [shelf, site, user] = await Promise.all([startShelf(), startSite({}), launchFirefoxUser()]);
    options = await signIn(user, shelf);
    // The user's bookmarks, made in the profile as Firefox's own bookmark manager makes them (Places).
    const url = (path: string) => JSON.stringify(site.url(path));
    await inBrowserChrome(
      user.browser,
      `(async () => {
        const { PlacesUtils } = ChromeUtils.importESModule('resource://gre/modules/PlacesUtils.sys.mjs');
        const { bookmarks } = PlacesUtils;
        const separator = { type: bookmarks.TYPE_SEPARATOR };
        await bookmarks.insertTree({ guid: bookmarks.toolbarGuid, children: [
          { title: 'On the toolbar', url: ${url('/toolbar')} },
          separator,
          { title: 'Reading', type: bookmarks.TYPE_FOLDER, children: [{ title: 'In a folder', url: ${url('/nested')} }, separator] },
          { title: 'Most Visited', url: 'place:sort=8&maxResults=10' },
        ] });
        await bookmarks.insertTree({ guid: bookmarks.menuGuid, children: [{ title: 'In the menu', url: ${url('/menu')} }, separator] });
        await bookmarks.insertTree({ guid: bookmarks.unfiledGuid, children: [{ title: 'Other one', url: ${url('/other')} }] });
        await bookmarks.insertTree({ guid: bookmarks.mobileGuid, children: [{ title: 'From the phone', url: ${url('/phone')} }] });
      })()`,
    );
  });

  afterAll(async () => {
    await Promise.all([user?.close(), shelf?.stop(), site?.close()]);
  });

  it('imports every root’s bookmarks into collections named after their folders, leaving separators and queries out', { timeout: 60_000 }, async () => {
    await options.click('link', 'Import and export');
    await options.click('button', 'Import this browser’s bookmarks');
    await expect.poll(async () => (await options.count('list', 'Skipped entries')) > 0, { timeout: 30_000, interval: 500 }).toBe(true);
    // Separators are no entries; a place: query (a saved search of Firefox's history) is no web page: skipped, and said so.
    const skipped = await options.textOf('list', 'Skipped entries');
    expect(skipped).toContain('unsupported URL scheme "place:"');
    expect(skipped).not.toContain('data:');

    const bookmarks = dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data;
    const collections = dataOf<Collection[]>(await shelf.api('GET', '/collections'));
    const nameOf = (id: string | null) => collections.find((c) => c.id === id)?.name ?? null;
    const imported = (path: string) => bookmarks.filter((b) => b.url === site.url(path)).map((b) => ({ title: b.title, collection: nameOf(b.collectionId) }));
    expect(imported('/toolbar')).toEqual([{ title: 'On the toolbar', collection: 'Bookmarks Toolbar' }]);
    expect(imported('/nested')).toEqual([{ title: 'In a folder', collection: 'Reading' }]);
    expect(imported('/menu')).toEqual([{ title: 'In the menu', collection: 'Bookmarks Menu' }]);
    expect(imported('/other')).toEqual([{ title: 'Other one', collection: 'Other Bookmarks' }]);
    expect(imported('/phone')).toEqual([{ title: 'From the phone', collection: 'Mobile Bookmarks' }]);
    const reading = collections.find((c) => c.name === 'Reading');
    expect(nameOf(reading?.parentId ?? null)).toBe('Bookmarks Toolbar');
    expect(bookmarks.filter((b) => !b.url.startsWith('http'))).toEqual([]);
  });
});
