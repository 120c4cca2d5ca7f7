import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'wxt/browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type ShelfProcess, type Site, dataOf, startShelf, startSite } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: typeof Browser;

/** The background's hourly alarm that brings the saved-page index in step with the server (background/index-sync.ts). */
const SYNC_ALARM = 'shelf-sync-saved-index';

/**
 * The toolbar button's ✓ for a page saved elsewhere (another device, the web app: here the API itself): it shows
 * once the saved-page index syncs, and goes once a sync finds the bookmark trashed. The icon is read as the
 * browser keeps it for the tab (badge, its colour, the button's title) through the extension API. One
 * description, run in Chromium (test/browser/saved-icon.test.ts) and Firefox (test/firefox/saved-icon.test.ts).
 */
export function savedIconScenarios(launch: () => Promise<ExtensionUser>): void {
  describe('the ✓ icon for a page saved elsewhere, after the index syncs', () => {
    let shelf: ShelfProcess;
    let site: Site;
    let user: ExtensionUser;
    let settings: UserPage;
    /** The tab showing the page saved elsewhere. */
    let tabId: number;

    beforeAll(async () => {
      [shelf, site, user] = await Promise.all([startShelf(), startSite({ '/elsewhere': 'Saved on another device', '/unsaved': 'Never saved' }), launch()]);
      settings = await signIn(user, shelf);
    });

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop(), site?.close()]);
    });

    /** The toolbar button as the browser shows it on that tab. */
    const icon = (tabId: number) =>
      settings.evaluate(
        async (id) => ({
          badge: await chrome.action.getBadgeText({ tabId: id }),
          color: [...(await chrome.action.getBadgeBackgroundColor({ tabId: id }))],
          title: await chrome.action.getTitle({ tabId: id }),
        }),
        tabId,
      );
    /** The hour has come: the browser fires the sync's own alarm now (the background's listener runs as it would then). */
    const syncNow = () => settings.evaluate((name) => chrome.alarms.create(name, { when: Date.now(), periodInMinutes: 60 }), SYNC_ALARM);
    const NOT_SAVED = { badge: '', title: 'Save to Shelf' };
    const SAVED = { badge: '✓', color: [22, 163, 74, 255], title: 'Shelf: this page is saved' };

    it('shows ✓ on a page saved elsewhere once the index syncs, and only there', async () => {
      tabId = await user.openTab(site.url('/elsewhere'));
      await expect.poll(() => icon(tabId), { timeout: 10_000 }).toMatchObject(NOT_SAVED);

      dataOf<Bookmark>(await shelf.api('POST', '/bookmarks', { url: site.url('/elsewhere'), title: 'Saved on another device' }));
      const other = await user.openTab(site.url('/unsaved'));
      // A tab switch reads the local index only: it does not know yet.
      expect(await icon(tabId)).toMatchObject(NOT_SAVED);

      await syncNow();

      await expect.poll(() => icon(tabId), { timeout: 15_000 }).toEqual(SAVED);
      expect(await icon(other)).toMatchObject(NOT_SAVED);
    });

    it('drops the ✓ from the tab once a sync finds the bookmark trashed elsewhere', async () => {
      expect(await icon(tabId)).toEqual(SAVED);
      const [saved] = dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.filter((b) => b.url === site.url('/elsewhere'));
      await shelf.api('POST', '/bookmarks/bulk/trash', { ids: [saved!.id] });

      await syncNow();

      await expect.poll(() => icon(tabId), { timeout: 15_000 }).toMatchObject(NOT_SAVED);
    });
  });
}
