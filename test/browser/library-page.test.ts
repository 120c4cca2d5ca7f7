import type { Page } from 'playwright-core';
import type { Browser } from 'wxt/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { libraryPageScenarios } from '../scenarios/library-page.ts';
import { transitionsEnded, violations } from './axe.ts';
import { launchChromiumUser } from './chromium-user.ts';
import {
  type Dispatchable,
  type ExtensionBrowser,
  type ShelfProcess,
  type Site,
  dataOf,
  launchExtension,
  notifications,
  recordNotifications,
  signInThroughOptions,
  startShelf,
  startSite,
} from './support.ts';

// The extension API inside functions that run in the worker: not a global of this Node process.
declare const chrome: typeof Browser;

let user: Awaited<ReturnType<typeof launchChromiumUser>>;

/** The library page the scans share, one load (and one injection of axe-core's source) for both colour schemes; it goes with the user. */
let scanned: Page | undefined;

libraryPageScenarios(async () => (user = await launchChromiumUser()), {
  // Playwright emulates the colour scheme, and evaluates axe-core's source past the page's CSP.
  async accessibilityViolations(colorScheme) {
    const page = (scanned ??= await user.extension.context.newPage());
    await page.emulateMedia({ colorScheme });
    if (page.url() === 'about:blank') await page.goto(user.extension.url('library.html'));
    // The page's styles follow the scheme's media query as it changes: its colours are scanned once they have changed.
    expect(await page.evaluate((scheme) => matchMedia(`(prefers-color-scheme: ${scheme})`).matches, colorScheme)).toBe(true);
    await transitionsEnded(page);
    await page.getByRole('list', { name: 'All bookmarks' }).getByRole('link', { name: 'Dev here' }).waitFor();
    const found: Record<string, string[]> = {};
    for (const view of ['List', 'Cards', 'Grid']) {
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: view, exact: true }).click();
      await page.getByRole('list', { name: 'All bookmarks' }).getByRole('link', { name: 'Dev here' }).waitFor();
      found[view] = await violations(page);
    }
    return found;
  },
});

/** Save all tabs of a window, from the toolbar button's menu, in real Chromium against the real server (issue 20). */
describe('saving all the tabs of a window, in Chromium', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;
  let site: Site;

  const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: 'd', ...body }).then((res) => dataOf<Bookmark>(res));
  const get = (id: string) => shelf.api('GET', `/bookmarks/${id}`).then((res) => dataOf<Bookmark>(res));
  const PAGES = ['/one', '/two', '/three', '/four', '/five'];

  beforeAll(async () => {
    [shelf, browser, site] = await Promise.all([
      startShelf(['--raise-limits', '--allow-private-fetch']),
      launchExtension(),
      startSite(Object.fromEntries(PAGES.map((path) => [path, `Page ${path.slice(1)}`]))),
    ]);
    await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop(), site?.close()]);
  });

  it('saves all five tabs of a window: one progress line, the five on the server, the one saved before left as it was', async () => {
    const before = await save({ url: site.url('/three'), title: 'Saved before', tags: ['kept'] });
    await recordNotifications(browser);
    const worker = await browser.worker();
    const windowId = await worker.evaluate(async (urls) => (await chrome.windows.create({ url: urls }))!.id!, PAGES.map((path) => site.url(path)));
    // Each tab has loaded its page (its title is what is saved).
    await expect
      .poll(() => worker.evaluate(async (id) => (await chrome.tabs.query({ windowId: id })).filter((t) => t.status === 'complete' && t.title?.startsWith('Page')).length, windowId), { timeout: 20_000 })
      .toBe(5);
    // The toolbar button's menu item, as Chromium fires it (headless Chromium opens no menus).
    await worker.evaluate(async (id) => {
      const [tab] = await chrome.tabs.query({ windowId: id, active: true });
      (chrome.contextMenus.onClicked as unknown as Dispatchable).dispatch({ menuItemId: 'shelf-save-all-tabs', editable: false, pageUrl: tab!.url }, tab);
    }, windowId);
    await expect.poll(async () => (await notifications(browser)).filter((n) => n.title === 'Save all tabs'), { timeout: 30_000 }).toHaveLength(1);
    const [note] = (await notifications(browser)).filter((n) => n.title === 'Save all tabs');
    expect(note!.message).toMatch(/saved/i);
    const all = dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=200')).data;
    for (const path of PAGES) expect(all.filter((b) => b.url === site.url(path))).toHaveLength(1);
    const kept = await get(before.id);
    expect(kept.title).toBe('Saved before');
    expect(kept.tags).toEqual(['kept']);
    await worker.evaluate((id) => chrome.windows.remove(id), windowId);
  });
});
