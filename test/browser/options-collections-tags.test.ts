import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Collection } from '../../lib/api/collections.ts';
import type { Tag } from '../../lib/api/tags.ts';
import { type ExtensionBrowser, type ShelfProcess, type Site, dataOf, launchExtension, signInThroughOptions, startShelf, startSite } from './support.ts';
import { POLL_SERVER } from '../support/poll-server.ts';

describe('the options page’s Collections and Tags, in Chromium', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;
  let page: Page;
  let site: Site;
  let problems: string[] = [];

  const collections = async () => dataOf<Collection[]>(await shelf.api('GET', '/collections'));
  const tags = async () => dataOf<Tag[]>(await shelf.api('GET', '/tags'));

  beforeAll(async () => {
    [shelf, browser, site] = await Promise.all([startShelf(), launchExtension(), startSite({ '/article': 'An article' })]);
    for (const [i, tagNames] of [['reading'], ['reading', 'toread'], ['toread']].entries()) {
      await shelf.api('POST', '/bookmarks', { url: `https://example.com/${i}`, title: `Page ${i}`, tags: tagNames });
    }
    page = await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
    page.on('pageerror', (error) => problems.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop(), site?.close()]);
  });

  afterEach(() => {
    expect(problems).toEqual([]);
    problems = [];
  });

  it('creates, renames, moves with the keyboard and deletes a collection', async () => {
    await page.getByRole('link', { name: 'Collections' }).click();
    const tree = page.getByRole('tree', { name: 'Collections' });
    const create = async (name: string) => {
      await page.getByLabel('New collection', { exact: true }).fill(name);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await tree.getByRole('treeitem', { name: new RegExp(`^${name}`) }).waitFor();
    };
    await create('Projects');
    await create('Archive');

    await tree.getByRole('treeitem', { name: /^Projects/ }).click();
    const details = page.getByRole('region', { name: 'Collection Projects' });
    await details.getByLabel('Name', { exact: true }).fill('Work');
    await details.getByRole('button', { name: 'Save' }).click();
    await tree.getByRole('treeitem', { name: /^Work/ }).waitFor();
    await expect.poll(async () => (await collections()).map((c) => c.name).sort(), POLL_SERVER).toEqual(['Archive', 'Work']);

    // "Move to…" with the keyboard only: the dialog opens on its filter; Tab reaches the places (the focused one is chosen).
    await page.getByRole('button', { name: 'Move to…' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Move “Work”' });
    await expect.poll(() => dialog.getByLabel('Filter places').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('Arch');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('treeitem');
    await expect.poll(() => dialog.getByRole('treeitem', { name: /Archive/ }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Tab'); // Cancel
    await page.keyboard.press('Tab'); // Move
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const archive = (await collections()).find((c) => c.name === 'Archive')!;
    await expect.poll(async () => (await collections()).find((c) => c.name === 'Work')?.parentId, POLL_SERVER).toBe(archive.id);
    await expect.poll(() => tree.getByRole('treeitem', { name: /^Work/ }).getAttribute('aria-level')).toBe('2');

    await tree.getByRole('treeitem', { name: /^Archive/ }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete “Archive”?' });
    await expect.poll(() => confirm.textContent()).toContain('goes to the trash with 1 collection inside it');
    await confirm.getByRole('button', { name: 'Move to trash' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => tree.getByRole('treeitem').count()).toBe(0);
    expect(await collections()).toEqual([]);
    await page.getByRole('list', { name: 'Collections in the trash' }).getByText('Archive').waitFor();
  });

  it('renames a tag and merges another into it', async () => {
    await page.getByRole('link', { name: 'Tags' }).click();
    const tree = page.getByRole('tree', { name: 'Tags' });
    await tree.getByRole('treeitem', { name: /^reading\s*2 bookmarks/ }).click();
    await page.getByLabel(/^Name/).fill('read');
    await page.getByRole('button', { name: 'Rename' }).click();
    await tree.getByRole('treeitem', { name: /^read\s*2 bookmarks/ }).waitFor();

    await tree.getByRole('treeitem', { name: /^toread/ }).click();
    await page.getByRole('button', { name: 'Merge into…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge “toread” into…' });
    await dialog.getByLabel('Filter tags').fill('read');
    await dialog.getByLabel('Merge into').selectOption({ label: 'read (2 bookmarks)' });
    await dialog.getByRole('button', { name: 'Merge' }).click();
    await dialog.waitFor({ state: 'detached' });
    await tree.getByRole('treeitem', { name: /^read\s*3 bookmarks/ }).waitFor();
    expect((await tags()).map((t) => [t.name, t.count])).toEqual([['read', 3]]);

    // The popup's suggestions come from the background's kept tags, refreshed by each change.
    const { tabId } = await browser.openTab(site.url('/article'));
    const popup = await browser.context.newPage();
    popup.on('pageerror', (error) => problems.push(error.message));
    await popup.goto(browser.url(`popup.html?tabId=${tabId}`));
    await popup.getByRole('combobox', { name: 'Tags' }).fill('read');
    const suggestions = popup.getByRole('listbox', { name: 'Tag suggestions' }).getByRole('option');
    await expect.poll(() => suggestions.allTextContents()).toEqual(['read']);
  });
});
