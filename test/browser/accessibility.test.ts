import type { Locator, Page } from 'playwright-core';
import { transitionsEnded, violations } from './axe.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { type ExtensionBrowser, type ShelfProcess, type Site, dataOf, launchExtension, signInThroughOptions, startShelf, startSite } from './support.ts';

describe('every page of the extension, scanned by axe-core in light and dark', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;
  let site: Site;
  let tabId: number;

  const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: '', ...body }).then((res) => dataOf<Bookmark>(res));

  /**
   * Each page, once what shows that its content arrived is there, scanned in light and then in dark: its styles follow
   * the scheme's media query as it changes, so one load serves both (a load and axe-core's source each cost a second of CPU).
   */
  const scanIn = async (page: Page, path: string, ready: (page: Page) => Locator) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(browser.url(path === 'popup.html' ? `popup.html?tabId=${tabId}` : path));
    await ready(page).first().waitFor({ timeout: 10_000 });
    await transitionsEnded(page);
    const light = await violations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await transitionsEnded(page);
    return { light, dark: await violations(page) };
  };
  const scan = async (path: string, ready: (page: Page) => Locator) => {
    const page = await browser.context.newPage();
    try {
      return await scanIn(page, path, ready);
    } finally {
      await page.close();
    }
  };
  /**
   * The options page, one document for every section, signed out and in: a section is chosen by the page's address
   * (#id), as its navigation's links choose it, and the sign-in is made on its form, so the page's load and axe-core's
   * source are paid once rather than nine times. It goes with the browser.
   */
  let options: Page | undefined;
  const scanAt = async (path: string, ready: (page: Page) => Locator) =>
    path.startsWith('options.html#') ? scanIn((options ??= await browser.context.newPage()), path, ready) : scan(path, ready);

  beforeAll(async () => {
    [shelf, browser, site] = await Promise.all([startShelf(), launchExtension(), startSite({ '/article': 'An article' })]);
    ({ tabId } = await browser.openTab(site.url('/article')));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop(), site?.close()]);
  });

  /** What a new user meets before signing in. */
  const SIGNED_OUT: [string, (page: Page) => Locator][] = [
    ['options.html#account', (page) => page.getByRole('button', { name: 'Sign in' })],
    ['popup.html', (page) => page.getByRole('heading', { name: 'Sign in to Shelf' })],
    ['sidepanel.html', (page) => page.getByRole('alert')],
    ['library.html', (page) => page.getByRole('alert')],
  ];
  for (const [path, ready] of SIGNED_OUT) {
    it(`${path} signed out has no violations, light or dark`, async () => {
      expect(await scanAt(path, ready)).toEqual({ light: [], dark: [] });
    });
  }

  describe('signed in', () => {
    beforeAll(async () => {
      const reading = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Reading', color: '#2563eb' }));
      await shelf.api('POST', '/collections', { name: 'Later', parentId: reading.id });
      await shelf.api('POST', '/collections', { name: 'Archive' });
      await save({ url: 'https://example.com/a', title: 'Deep read', tags: ['news/world', 'deep'], collectionId: reading.id });
      await save({ url: 'https://example.com/b', title: 'Short read', tags: ['news'] });
      const trashed = await save({ url: 'https://example.com/old', title: 'Old page' });
      await shelf.api('DELETE', `/bookmarks/${trashed.id}`);
      await shelf.api('POST', '/smart-folders', { name: 'Deep reads', rules: { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'deep' }] } });
      options ??= await browser.context.newPage();
      if (options.url() === 'about:blank') await options.goto(browser.url('options.html#account'));
      await signInThroughOptions(browser, shelf.baseUrl, shelf.token, options);
    }, 120_000);

    /** Each page, and what shows that its content has arrived. */
    const PAGES: [string, (page: Page) => Locator][] = [
      ['options.html#account', (page) => page.getByRole('button', { name: 'Sign out' })],
      ['options.html#collections', (page) => page.getByRole('treeitem', { name: /^Reading/ })],
      ['options.html#tags', (page) => page.getByRole('treeitem', { name: /^deep/ })],
      ['options.html#smart-folders', (page) => page.getByText('Deep reads')],
      ['options.html#trash', (page) => page.getByText('Old page')],
      ['options.html#import-export', (page) => page.getByRole('button', { name: 'Export library' })],
      ['options.html#site-access', (page) => page.getByText('No other site.')],
      ['sidepanel.html', (page) => page.getByRole('navigation', { name: 'Library' }).getByRole('button', { name: /^Reading/ })],
      ['popup.html', (page) => page.getByRole('heading', { name: 'Save to Shelf' })],
    ];

    for (const [path, ready] of PAGES) {
      it(`${path} has no violations, light or dark`, async () => {
        expect(await scanAt(path, ready)).toEqual({ light: [], dark: [] });
      });
    }
  });
});
