import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Browser } from 'wxt/browser';
import { type Dispatchable, type ExtensionBrowser, type ShelfProcess, type Site, dataOf, launchExtension, signInThroughOptions, startShelf, startSite } from './support.ts';

declare const chrome: typeof Browser;

/**
 * Saving without the popup. Chromium does not route synthetic key presses
 * (CDP) to extension shortcuts, nor open context menus headless, so these tests
 * check the declared command and then fire the worker's own command and
 * context-menu events, which run the real listeners: the path from the event
 * to the saved bookmark and the notification is the shipped code.
 */
describe('quick save in Chromium', () => {
  let shelf: ShelfProcess;
  let site: Site;
  let browser: ExtensionBrowser;

  beforeAll(async () => {
    [shelf, site, browser] = await Promise.all([
      startShelf(),
      startSite({ '/quick': 'Quick page', '/linked': 'Linked page', '/menu': 'Menu page' }),
      launchExtension(),
    ]);
    await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop(), site?.close()]);
  });

  const bookmarksAt = async (url: string) =>
    dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.filter((b) => b.url === url);

  const notificationCount = async () => Object.keys(await browser.inWorker(() => chrome.notifications.getAll())).length;

  it('declares the save-page command with its Alt+Shift+S shortcut', async () => {
    const worker = await browser.worker();
    const commands = await worker.evaluate(() => chrome.commands.getAll());
    expect(commands).toContainEqual(expect.objectContaining({ name: 'save-page', shortcut: 'Alt+Shift+S' }));
  });

  it('saves the active tab on the save-page command, shows a notification and the saved icon', async () => {
    const { page, tabId } = await browser.openTab(site.url('/quick'));
    await page.bringToFront();
    const before = await notificationCount();

    await (await browser.worker()).evaluate(async (id) => {
      const tab = await chrome.tabs.get(id);
      (chrome.commands.onCommand as unknown as Dispatchable).dispatch('save-page', tab);
    }, tabId);

    await expect.poll(() => bookmarksAt(site.url('/quick')), { timeout: 10_000 }).toEqual([expect.objectContaining({ title: 'Quick page' })]);
    await expect.poll(notificationCount, { timeout: 5_000 }).toBe(before + 1);
    await expect.poll(() => browser.badge(tabId), { timeout: 5_000 }).toBe('✓');
  });

  it('saves a link from the context menu', async () => {
    const { tabId } = await browser.openTab(site.url('/menu'));
    const before = await notificationCount();

    await (await browser.worker()).evaluate(
      async ([id, linkUrl]) => {
        const tab = await chrome.tabs.get(id);
        (chrome.contextMenus.onClicked as unknown as Dispatchable).dispatch({ menuItemId: 'shelf-save-link', linkUrl, pageUrl: tab.url, editable: false }, tab);
      },
      [tabId, site.url('/linked')] as const,
    );

    await expect.poll(() => bookmarksAt(site.url('/linked')), { timeout: 10_000 }).toHaveLength(1);
    await expect.poll(notificationCount, { timeout: 5_000 }).toBe(before + 1);
    expect(await bookmarksAt(site.url('/menu'))).toEqual([]);
  });
});
