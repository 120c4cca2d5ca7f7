import type { Page } from 'playwright-core';
import type { Browser } from 'wxt/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { violations } from './axe.ts';
import type { Collection } from '../../lib/api/collections.ts';
import {
  type ExtensionBrowser,
  type ShelfProcess,
  type Site,
  dataOf,
  launchExtension,
  nextOpenedPage,
  signInThroughOptions,
  startShelf,
  startSite,
} from './support.ts';

// The extension API inside functions that run in the worker: not a global of this Node process.
declare const chrome: typeof Browser;

/** The library page as a user goes through it, in real Chromium against the real server (issue 20). */
describe('the library page, in Chromium', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;
  let site: Site;
  let library: Page;
  let reading: Collection;
  let later: Collection;
  const problems: string[] = [];

  const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: 'd', ...body }).then((res) => dataOf<Bookmark>(res));
  const get = (id: string) => shelf.api('GET', `/bookmarks/${id}`).then((res) => dataOf<Bookmark>(res));
  const collection = (name: string) => shelf.api('POST', '/collections', { name }).then((res) => dataOf<Collection>(res));
  const nav = () => library.getByRole('navigation', { name: 'Library' });
  const viewButton = (name: string) => library.getByRole('group', { name: 'View' }).getByRole('button', { name, exact: true });
  const PAGES = ['/one', '/two', '/three', '/four', '/five'];

  beforeAll(async () => {
    [shelf, browser, site] = await Promise.all([
      startShelf(['--raise-limits', '--allow-private-fetch']),
      launchExtension(),
      startSite(Object.fromEntries(PAGES.map((path) => [path, `Page ${path.slice(1)}`]))),
    ]);
    reading = await collection('Reading');
    later = await collection('Later');
    await save({ url: 'https://example.com/dev-here', title: 'Dev here', tags: ['dev'], collectionId: reading.id });
    await save({ url: 'https://other.org/dev-there', title: 'Dev elsewhere', tags: ['dev'], collectionId: reading.id });
    await save({ url: 'https://example.com/dev-outside', title: 'Dev outside', tags: ['dev'] });
    const options = await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
    // The way in: the options page's link, opening a new tab.
    const opened = nextOpenedPage(browser, /\/library\.html$/);
    await options.getByRole('link', { name: 'Open library' }).click();
    library = await opened;
    library.on('pageerror', (error) => problems.push(error.message));
    await options.close();
  }, 120_000);

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop(), site?.close()]);
  });

  it('switches views list → cards → grid, and opens in the chosen one after a reload', async () => {
    await nav().getByRole('button', { name: 'All bookmarks' }).click();
    const list = library.getByRole('list', { name: 'All bookmarks' });
    await list.getByRole('link', { name: 'Dev here' }).waitFor();
    for (const view of ['List', 'Cards', 'Grid']) {
      await viewButton(view).click();
      await expect.poll(() => viewButton(view).getAttribute('aria-pressed')).toBe('true');
    }
    await library.reload();
    await library.getByRole('list', { name: 'All bookmarks' }).getByRole('link', { name: 'Dev here' }).waitFor();
    expect(await viewButton('Grid').getAttribute('aria-pressed')).toBe('true');
    await viewButton('List').click();
    expect(problems).toEqual([]);
  });

  it('drags two selected bookmarks onto a collection: both moved on the server', async () => {
    const first = await save({ url: site.url('/one'), title: 'Page one' });
    const second = await save({ url: site.url('/two'), title: 'Page two' });
    await library.reload();
    const list = library.getByRole('list', { name: 'All bookmarks' });
    await list.getByRole('checkbox', { name: 'Select Page one' }).check();
    await list.getByRole('checkbox', { name: 'Select Page two' }).check();
    await list.getByRole('link', { name: 'Page two' }).dragTo(nav().getByRole('button', { name: /^Later/ }));
    await library.getByText('Moved 2 of 2.').waitFor();
    expect((await get(first.id)).collectionId).toBe(later.id);
    expect((await get(second.id)).collectionId).toBe(later.id);
    expect(problems).toEqual([]);
  });

  it('searches #tag site: inside a collection: results from there only', async () => {
    await nav().getByRole('button', { name: /^Reading/ }).click();
    await library.getByRole('list', { name: 'Reading' }).waitFor();
    await library.getByRole('searchbox', { name: 'Search in Reading' }).fill('#dev site:example.com');
    const results = library.getByRole('list', { name: 'Search results for #dev site:example.com' });
    await results.getByRole('link', { name: 'Dev here' }).waitFor();
    expect(await results.getByRole('link').allTextContents()).toEqual(['Dev here']);
    await library.getByRole('searchbox', { name: 'Search in Reading' }).fill('');
    expect(problems).toEqual([]);
  });

  it('opens a collection’s bookmarks with Open all: a new window with its tabs', async () => {
    const worker = await browser.worker();
    const windowsBefore = await worker.evaluate(async () => (await chrome.windows.getAll()).map((w) => w.id));
    await nav().getByRole('button', { name: /^Later/ }).click();
    await library.getByRole('list', { name: 'Later' }).getByRole('link', { name: 'Page one' }).waitFor({ timeout: 10_000 });
    await library.getByRole('button', { name: 'Open all' }).click({ timeout: 10_000 });
    await library.getByText('Opened 2 bookmarks in a new window.').waitFor({ timeout: 10_000 });
    const opened = await worker.evaluate(async (known) => {
      const windows = await chrome.windows.getAll({ populate: true });
      return windows.filter((w) => !known.includes(w.id)).map((w) => (w.tabs ?? []).map((t) => t.pendingUrl || t.url).sort());
    }, windowsBefore);
    expect(opened).toEqual([[site.url('/one'), site.url('/two')].sort()]);
    expect(problems).toEqual([]);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no axe-core violations in list, cards and grid, ${colorScheme}`, async () => {
      const page = await browser.context.newPage();
      try {
        await page.emulateMedia({ colorScheme });
        await page.goto(browser.url('library.html'));
        await page.getByRole('list', { name: 'All bookmarks' }).getByRole('link', { name: 'Dev here' }).waitFor();
        for (const view of ['List', 'Cards', 'Grid']) {
          await page.getByRole('group', { name: 'View' }).getByRole('button', { name: view, exact: true }).click();
          await page.getByRole('list', { name: 'All bookmarks' }).getByRole('link', { name: 'Dev here' }).waitFor();
          expect(await violations(page), view).toEqual([]);
        }
      } finally {
        await page.close();
      }
    });
  }
});
