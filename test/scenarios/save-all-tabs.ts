import type { Browser } from 'wxt/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { type ShelfProcess, type Site, dataOf, startShelf, startSite } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: typeof Browser;

const PAGES = ['/one', '/two', '/three', '/four', '/five'];
const TITLES: Record<string, string> = Object.fromEntries(PAGES.map((path) => [path, `Page ${path.slice(1)}`]));

/**
 * *Save all tabs* from the popup (issue 20, point 4): a window of five pages, one of them saved before with its own
 * tags, saved into a new collection made in the popup with two shared tags; the popup's one progress line is read
 * to its end, then the server is checked. Run in Chromium (test/browser/save-all-tabs.test.ts) and Firefox
 * (test/firefox/save-all-tabs.test.ts).
 */
export function saveAllTabsScenarios(launch: () => Promise<ExtensionUser>): void {
  describe('saving all the tabs of a window from the popup', () => {
    let shelf: ShelfProcess;
    let site: Site;
    let user: ExtensionUser;
    let options: UserPage;

    beforeAll(async () => {
      [shelf, site, user] = await Promise.all([startShelf(), startSite(TITLES), launch()]);
      options = await signIn(user, shelf);
    }, 60_000);

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop(), site?.close()]);
    });

    const library = async () => dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data;

    it('saves the five tabs into a new collection with two shared tags, the one saved before left as it was', { timeout: 60_000 }, async () => {
      const before = dataOf<Bookmark>(await shelf.api('POST', '/bookmarks', { url: site.url('/three'), title: 'Saved before', description: 'd', tags: ['kept'] }));
      const urls = PAGES.map((path) => site.url(path));
      const opened = await options.evaluate(async (list) => {
        const made = await chrome.windows.create({ url: list });
        return { windowId: made!.id!, tabId: made!.tabs![0]!.id! };
      }, urls);
      // Each tab has loaded its page (its title is what is saved).
      const loaded = () =>
        options.evaluate(
          async (id) => (await chrome.tabs.query({ windowId: id })).filter((t) => t.status === 'complete' && t.title?.startsWith('Page ')).length,
          opened.windowId,
        );
      await expect.poll(loaded, { timeout: 20_000, interval: 250 }).toBe(5);

      const popup = await user.open(`popup.html?tabId=${opened.tabId}`);
      await popup.click('button', 'Save all tabs');
      await popup.waitFor('button', 'Save 5 tabs');
      for (const tag of ['from tabs', 'reading list']) {
        await popup.fill('Tags', tag);
        await popup.press('Enter');
        await popup.waitFor('button', `Remove tag ${tag}`);
      }
      await popup.click('button', 'Collection: Unsorted');
      await popup.click('button', 'New collection…');
      await popup.fill('New collection name', 'Tabs of today');
      await popup.click('button', 'Create');
      await popup.waitFor('button', 'Collection: Tabs of today');
      await popup.click('button', 'Save 5 tabs');

      // The one line, read until it says the run is over: every reading is the line as it goes or its end.
      const seen: string[] = [];
      const line = async () => {
        const text = await popup.textOf('status');
        seen.push(text);
        return text;
      };
      // The popup's own tab may have opened in the new window: it is left out, not saved.
      await expect.poll(line, { timeout: 30_000, interval: 100 }).toMatch(/^Saved 4 tabs · 1 already saved(?: · 1 tab left out \(not web pages\))?\.$/);
      for (const text of seen) expect(text).toMatch(/^(?:\d of 5 saved(?:, 1 already saved)?…|Saved 4 tabs · 1 already saved.*\.)$/);

      const [made] = dataOf<Collection[]>(await shelf.api('GET', '/collections')).filter((c) => c.name === 'Tabs of today');
      const all = await library();
      for (const url of urls) expect(all.filter((b) => b.url === url)).toHaveLength(1);
      for (const saved of all.filter((b) => b.id !== before.id)) {
        expect(saved.collectionId).toBe(made!.id);
        expect([...saved.tags].sort()).toEqual(['from tabs', 'reading list']);
      }
      expect(all.find((b) => b.id === before.id)).toEqual(before);
      await popup.close();
      await options.evaluate((id) => chrome.windows.remove(id), opened.windowId);
    });
  });
}
