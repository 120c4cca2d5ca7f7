import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'wxt/browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { storedValue } from '../support/stored-text.ts';
import { type ShelfProcess, type Site, dataOf, startShelf, startSite } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: typeof Browser;

const SAVE_LINK = { id: 'shelf-save-link', title: 'Save link to Shelf' };

/**
 * Saves that wait in the queue while the browser unloads the extension's background (Chromium stops its
 * service worker, Firefox unloads its event page when idle) are sent once the browser starts it again, each
 * once. One description, run in Chromium (test/browser/save-queue.test.ts) and Firefox (test/firefox/save-queue.test.ts).
 */
export function saveQueueScenarios(launch: () => Promise<ExtensionUser>): void {
  describe('the save queue across an unloaded background', () => {
    let shelf: ShelfProcess;
    let site: Site;
    let proxy: FaultProxy;
    let user: ExtensionUser;
    let options: UserPage;

    beforeAll(async () => {
      [shelf, site, user] = await Promise.all([startShelf(), startSite({ '/links': 'Links to save' }), launch()]);
      proxy = await startFaultProxy(shelf.baseUrl);
      options = await signIn(user, { baseUrl: proxy.baseUrl, token: shelf.token });
    });

    afterAll(async () => {
      await Promise.all([user?.close(), proxy?.close(), site?.close()]);
      await shelf?.stop();
    });

    const queued = async () =>
      storedValue<{ body: { url: string } }[]>((await options.evaluate(() => chrome.storage.local.get('saveQueue'), undefined)).saveQueue, []);
    const copies = async (urls: string[]) => {
      const saved = dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data;
      return urls.map((url) => saved.filter((b) => b.url === url).length);
    };

    it('sends the saves that waited once the browser starts the background again (its alarm), each once', { timeout: 120_000 }, async () => {
      proxy.fault = 'down';
      const urls = [1, 2].map((i) => site.url(`/waiting-${i}`));
      const tabId = await user.openTab(site.url('/links'));
      for (const [i, url] of urls.entries()) {
        await user.chooseFromContextMenu(tabId, { link: url }, SAVE_LINK);
        await expect.poll(async () => (await queued()).length, { timeout: 20_000 }).toBe(i + 1);
      }
      expect((await queued()).map((save) => save.body.url)).toEqual(urls);

      await user.unloadBackground();
      proxy.requests.length = 0;
      proxy.fault = 'pass';

      // Nothing the test does wakes it: the queue's alarm (every half minute) starts it, and it sends what waits.
      await expect.poll(() => copies(urls), { timeout: 60_000, interval: 2_000 }).toEqual([1, 1]);
      await expect.poll(queued, { timeout: 10_000 }).toEqual([]);
      expect(proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/bookmarks')).toHaveLength(2);
      const savedTab = await user.openTab(urls[0]!);
      await expect.poll(() => user.badge(savedTab), { timeout: 10_000 }).toBe('✓');
    });
  });
}
