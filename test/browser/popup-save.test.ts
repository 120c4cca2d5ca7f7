import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { popupSaveScenarios } from '../scenarios/popup-save.ts';
import { launchChromiumUser } from './chromium-user.ts';
import { type ExtensionBrowser, type ShelfProcess, type Site, dataOf, launchExtension, signInThroughOptions, startShelf, startSite } from './support.ts';

popupSaveScenarios(launchChromiumUser);

// Chromium only: Playwright can hold the popup's script back (route) while the user types and clicks.
describe('saving a page through the popup before its script has loaded, in Chromium', () => {
  let shelf: ShelfProcess;
  let site: Site;
  let browser: ExtensionBrowser;

  beforeAll(async () => {
    [shelf, site, browser] = await Promise.all([
      startShelf(),
      startSite({ '/early': 'Saved before the script' }),
      launchExtension(),
    ]);
    await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop(), site?.close()]);
  });

  let problems: string[] = [];
  /** A new popup page whose errors (a pre-rendered form React could not take over, say) fail the test. */
  const newPopupPage = async (): Promise<Page> => {
    const popup = await browser.context.newPage();
    popup.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    popup.on('pageerror', (error) => problems.push(error.message));
    return popup;
  };
  afterEach(() => {
    expect(problems).toEqual([]);
    problems = [];
  });

  const bookmarksAt = async (url: string) =>
    dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.filter((b) => b.url === url);

  it('saves what was typed and clicked before the popup’s script had loaded, once', async () => {
    const earlyUrl = site.url('/early');
    const { tabId } = await browser.openTab(earlyUrl);
    // The popup's script is held back until the user has typed and clicked: only the page's own form and popup-early.js are there.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const script = /\/chunks\/popup-[^/]+\.js$/;
    await browser.context.route(script, async (route) => {
      await released;
      await route.continue();
    });
    try {
      const popup = await newPopupPage();
      await popup.goto(browser.url(`popup.html?tabId=${tabId}`), { waitUntil: 'commit' });
      await popup.getByLabel('Title').fill('Typed before the script');
      await popup.getByRole('combobox', { name: 'Tags' }).fill('early');
      await popup.getByRole('button', { name: 'Save', exact: true }).click();
      expect(await popup.evaluate(() => performance.getEntriesByName('shelf:popup-taken-over').length)).toBe(0);
      expect(await bookmarksAt(earlyUrl)).toHaveLength(0);

      release();
      await popup.getByRole('heading', { name: 'Saved in Shelf' }).waitFor({ timeout: 10_000 });
      const saved = await bookmarksAt(earlyUrl);
      expect(saved).toHaveLength(1);
      expect(saved[0]).toMatchObject({ title: 'Typed before the script', tags: ['early'] });
      await expect.poll(() => browser.badge(tabId), { timeout: 10_000 }).toBe('✓');
      await popup.close();
    } finally {
      release();
      await browser.context.unroute(script);
    }
  });
});
