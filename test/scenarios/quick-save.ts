import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'wxt/browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type ShelfProcess, type Site, dataOf, startShelf, startSite } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: typeof Browser;

const SAVE_PAGE = { id: 'shelf-save-page', title: 'Save page to Shelf' };
const SAVE_LINK = { id: 'shelf-save-link', title: 'Save link to Shelf' };

/**
 * Saving without the popup: the save-page command (its shortcut) and the context menu's Save page and Save link,
 * each with its notification and the saved page's ✓ icon. One description of the user's steps, run in Chromium
 * (test/browser/quick-save.test.ts) and Firefox (test/firefox/quick-save.test.ts).
 */
export function quickSaveScenarios(launch: () => Promise<ExtensionUser>): void {
  describe('quick save: the command and the context menu', () => {
    let shelf: ShelfProcess;
    let site: Site;
    let user: ExtensionUser;
    let options: UserPage;

    beforeAll(async () => {
      [shelf, site, user] = await Promise.all([
        startShelf(),
        startSite({ '/quick': 'Quick page', '/linked': 'Linked page', '/menu': 'Menu page', '/holder': 'Page with a link' }),
        launch(),
      ]);
      options = await signIn(user, shelf);
      await options.evaluate(() => {
        const seen = ((globalThis as { __shelfNotes?: Set<string> }).__shelfNotes ??= new Set<string>());
        const record = (id: string) => void seen.add(id);
        chrome.notifications.onClosed.addListener(record);
        // Firefox's own event (not in Chromium's API).
        (chrome.notifications as { onShown?: typeof chrome.notifications.onClosed }).onShown?.addListener(record);
      }, undefined);
    });

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop(), site?.close()]);
    });

    const bookmarksAt = async (url: string) =>
      dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.filter((b) => b.url === url);
    /**
     * The notifications the extension showed: those on screen, and those a listener of the options page saw
     * shown or closed (Chromium closes each after a few seconds; headless Firefox shows one and closes it at once).
     */
    const notifications = async () =>
      options.evaluate(async () => {
        const seen = ((globalThis as { __shelfNotes?: Set<string> }).__shelfNotes ??= new Set<string>());
        return [...Object.keys(await chrome.notifications.getAll()), ...seen];
      }, undefined);
    const aNewNotification = async (before: string[]) => {
      await expect.poll(async () => (await notifications()).some((id) => !before.includes(id)), { timeout: 10_000 }).toBe(true);
    };

    it('declares the save-page command with its Alt+Shift+S shortcut', async () => {
      const commands = await options.evaluate(() => chrome.commands.getAll(), undefined);
      expect(commands).toContainEqual(expect.objectContaining({ name: 'save-page', shortcut: 'Alt+Shift+S' }));
    });

    it('saves the tab in front on the save-page command, with a notification and the saved icon', async () => {
      const tabId = await user.openTab(site.url('/quick'));
      expect(await user.badge(tabId)).toBe('');
      const before = await notifications();

      await user.runCommand('save-page');

      await expect.poll(() => bookmarksAt(site.url('/quick')), { timeout: 10_000, interval: 500 }).toEqual([expect.objectContaining({ title: 'Quick page' })]);
      await aNewNotification(before);
      await expect.poll(() => user.badge(tabId), { timeout: 10_000 }).toBe('✓');
    });

    it('saves the page from the context menu', async () => {
      const tabId = await user.openTab(site.url('/menu'));
      const before = await notifications();

      await user.chooseFromContextMenu(tabId, { page: true }, SAVE_PAGE);

      await expect.poll(() => bookmarksAt(site.url('/menu')), { timeout: 10_000, interval: 500 }).toEqual([expect.objectContaining({ title: 'Menu page' })]);
      await aNewNotification(before);
      await expect.poll(() => user.badge(tabId), { timeout: 10_000 }).toBe('✓');
    });

    it('saves a link from the context menu, not the page it is on', async () => {
      const tabId = await user.openTab(site.url('/holder'));
      const before = await notifications();

      await user.chooseFromContextMenu(tabId, { link: site.url('/linked') }, SAVE_LINK);

      await expect.poll(() => bookmarksAt(site.url('/linked')), { timeout: 10_000, interval: 500 }).toHaveLength(1);
      await aNewNotification(before);
      expect(await bookmarksAt(site.url('/holder'))).toEqual([]);
      expect(await user.badge(tabId)).toBe('');
    });
  });
}
