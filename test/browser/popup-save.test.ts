import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { type ExtensionBrowser, type ShelfProcess, type Site, dataOf, launchExtension, signInThroughOptions, startShelf, startSite } from './support.ts';

describe('saving a page through the popup, in Chromium', () => {
  let shelf: ShelfProcess;
  let site: Site;
  let browser: ExtensionBrowser;
  let collection: Collection;
  let pageUrl: string;
  let tabId: number;

  beforeAll(async () => {
    [shelf, site, browser] = await Promise.all([
      startShelf(),
      startSite({ '/article': 'An article worth keeping', '/other': 'Another page', '/early': 'Saved before the script' }),
      launchExtension(),
    ]);
    // What the user already has: one tag and one collection, made through the API.
    dataOf(await shelf.api('POST', '/tags', { name: 'reading' }));
    collection = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Research' }));
    await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
    pageUrl = site.url('/article');
    ({ tabId } = await browser.openTab(pageUrl));
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

  const openPopup = async (): Promise<Page> => {
    const popup = await newPopupPage();
    await popup.goto(browser.url(`popup.html?tabId=${tabId}`));
    return popup;
  };

  /** Each chip has a "Remove tag <name>" button: the chips, by their accessible names. */
  const expectChosenTags = async (popup: Page, names: string[]) => {
    const chips = popup.getByRole('list', { name: 'Chosen tags' }).getByRole('button', { name: /^Remove tag / });
    await expect.poll(() => chips.count()).toBe(names.length);
    for (const name of names) expect(await popup.getByRole('button', { name: `Remove tag ${name}`, exact: true }).count()).toBe(1);
  };

  const bookmarksAt = async (url: string) =>
    dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.filter((b) => b.url === url);

  it('saves the tab with an existing tag, a new tag, a collection, a note and a favourite', async () => {
    const popup = await openPopup();
    await popup.getByRole('heading', { name: 'Save to Shelf' }).waitFor();
    // The form shows before the tab is known: its title fills in when the browser answers.
    await expect.poll(() => popup.getByLabel('Title').inputValue()).toBe('An article worth keeping');
    expect(await browser.badge(tabId)).toBe('');

    const tags = popup.getByRole('combobox', { name: 'Tags' });
    // Focused by the page itself (autofocus in the pre-rendered form), ready for the first tag.
    expect(await tags.evaluate((input) => input === document.activeElement)).toBe(true);
    await tags.fill('rea');
    await popup.getByRole('listbox', { name: 'Tag suggestions' }).getByRole('option', { name: 'reading', exact: true }).click();
    await tags.fill('fresh find');
    await tags.press('Enter');
    await expectChosenTags(popup, ['reading', 'fresh find']);

    await popup.getByRole('button', { name: /^Collection:/ }).click();
    await popup.getByRole('dialog', { name: 'Choose a collection' }).getByRole('treeitem', { name: 'Research' }).click();
    await popup.getByRole('button', { name: 'Collection: Research' }).waitFor();

    await popup.getByLabel('Note').fill('Read the second half again');
    await popup.getByRole('checkbox', { name: 'Favorite' }).check();
    await popup.getByRole('button', { name: 'Save', exact: true }).click();

    await popup.getByRole('heading', { name: 'Saved in Shelf' }).waitFor({ timeout: 10_000 });
    expect(await popup.getByRole('status').textContent()).toContain('Saved');

    const saved = await bookmarksAt(pageUrl);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ title: 'An article worth keeping', collectionId: collection.id, note: 'Read the second half again', isFavorite: true });
    expect([...saved[0]!.tags].sort()).toEqual(['fresh find', 'reading']);

    await expect.poll(() => browser.badge(tabId), { timeout: 5_000 }).toBe('✓');
    await popup.close();
  });

  it('reopens on the saved bookmark: the edit view with its values, Update and Move to trash', async () => {
    const popup = await openPopup();
    await popup.getByRole('heading', { name: 'Saved in Shelf' }).waitFor({ timeout: 10_000 });
    expect(await popup.getByRole('button', { name: 'Update' }).isVisible()).toBe(true);
    expect(await popup.getByRole('button', { name: 'Move to trash' }).isVisible()).toBe(true);
    expect(await popup.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);

    expect(await popup.getByLabel('Title').inputValue()).toBe('An article worth keeping');
    await expectChosenTags(popup, ['reading', 'fresh find']);
    await popup.getByRole('button', { name: 'Collection: Research' }).waitFor();
    expect(await popup.getByLabel('Note').inputValue()).toBe('Read the second half again');
    expect(await popup.getByRole('checkbox', { name: 'Favorite' }).isChecked()).toBe(true);
    // Nothing changed yet: Update has nothing to send.
    expect(await popup.getByRole('button', { name: 'Update' }).isDisabled()).toBe(true);
    expect(await bookmarksAt(pageUrl)).toHaveLength(1);
  });

  it('saves what was typed and clicked before the popup’s script had loaded, once', async () => {
    const earlyUrl = site.url('/early');
    ({ tabId } = await browser.openTab(earlyUrl));
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
      await expect.poll(() => browser.badge(tabId), { timeout: 5_000 }).toBe('✓');
      await popup.close();
    } finally {
      release();
      await browser.context.unroute(script);
    }
  });
});
