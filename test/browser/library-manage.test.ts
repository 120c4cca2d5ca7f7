import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { cleanUpScenarios } from '../scenarios/clean-up.ts';
import { launchChromiumUser } from './chromium-user.ts';
import { type ExtensionBrowser, type ShelfProcess, dataOf, launchExtension, signInThroughOptions, startShelf } from './support.ts';

cleanUpScenarios(launchChromiumUser);

/** Managing the library where the user browses (issue 18), in Chromium (raised limits: the fixtures' saves go in at once). */
describe('managing the library from the side panel, in Chromium', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;
  let problems: string[] = [];

  const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: '', ...body }).then((res) => dataOf<Bookmark>(res));
  const get = (id: string) => shelf.api('GET', `/bookmarks/${id}`).then((res) => dataOf<Bookmark>(res));

  beforeAll(async () => {
    [shelf, browser] = await Promise.all([startShelf(['--raise-limits']), launchExtension()]);
    await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop()]);
  });

  afterEach(() => {
    expect(problems).toEqual([]);
    problems = [];
  });

  const open = async (path: string): Promise<Page> => {
    const page = await browser.context.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(browser.url(path));
    return page;
  };

  /** The side panel opens where the user left it: on the library's list of sources, or already in All bookmarks. */
  const showAllBookmarks = async (panel: Page) => {
    const heading = panel.getByRole('heading', { name: 'All bookmarks', exact: true });
    const nav = panel.getByRole('navigation', { name: 'Library' });
    await heading.or(nav).first().waitFor();
    if (!(await heading.isVisible())) await nav.getByRole('button', { name: 'All bookmarks' }).click();
  };

  it('edits every field of a bookmark from the side panel', async () => {
    const reading = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Reading' }));
    const before = await save({ url: 'https://edit.example/page', title: 'Before edit', tags: ['old', 'keep'], note: '' });
    const panel = await open('sidepanel.html');
    await showAllBookmarks(panel);
    await panel.getByRole('button', { name: 'Edit Before edit' }).click();
    const dialog = panel.getByRole('dialog', { name: 'Edit bookmark' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('After edit');
    await dialog.getByLabel('URL').fill('https://edit.example/moved');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('A description');
    await dialog.getByRole('textbox', { name: 'Note' }).fill('A note');
    await dialog.getByRole('button', { name: 'Remove tag old' }).click();
    await dialog.getByRole('combobox', { name: 'Tags' }).fill('fresh');
    await dialog.getByRole('combobox', { name: 'Tags' }).press('Enter');
    await dialog.getByRole('button', { name: /^Collection: / }).click();
    await dialog.getByRole('treeitem', { name: 'Reading' }).click();
    await dialog.getByRole('checkbox', { name: 'Favourite' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('link', { name: 'After edit' }).waitFor();
    // The row shows the edit at once; the one PATCH follows as the request budget allows.
    await expect.poll(async () => (await get(before.id)).title, { timeout: 20_000 }).toBe('After edit');

    const after = await get(before.id);
    expect(after).toMatchObject({
      url: 'https://edit.example/moved',
      title: 'After edit',
      description: 'A description',
      note: 'A note',
      collectionId: reading.id,
      isFavorite: true,
    });
    expect([...after.tags].sort()).toEqual(['fresh', 'keep']);
    await panel.close();
  }, 60_000);
  it('adds several tags to a selection in the side panel at once, then removes one of them from it', async () => {
    const first = await save({ url: 'https://bulk.example/one', title: 'Bulk one', tags: ['keep'] });
    const second = await save({ url: 'https://bulk.example/two', title: 'Bulk two' });
    const panel = await open('sidepanel.html');
    await showAllBookmarks(panel);
    await panel.getByRole('checkbox', { name: 'Select Bulk one' }).check();
    await panel.getByRole('checkbox', { name: 'Select Bulk two' }).check();
    const bar = panel.getByRole('toolbar', { name: 'Selected bookmarks' });
    await bar.getByText('2 selected').waitFor();

    await bar.getByRole('button', { name: 'Tag…', exact: true }).click();
    const tagging = panel.getByRole('dialog', { name: 'Tag 2 bookmarks' });
    await tagging.getByRole('combobox', { name: 'Tag name', exact: true }).fill('alpha, beta, gamma');
    await tagging.getByRole('button', { name: 'Add tag', exact: true }).click();
    await expect.poll(async () => (await get(second.id)).tags.sort(), { timeout: 20_000 }).toEqual(['alpha', 'beta', 'gamma']);
    expect((await get(first.id)).tags.sort()).toEqual(['alpha', 'beta', 'gamma', 'keep']);

    await panel.getByRole('checkbox', { name: 'Select Bulk one' }).check();
    await panel.getByRole('checkbox', { name: 'Select Bulk two' }).check();
    await bar.getByRole('button', { name: 'Remove tag…' }).click();
    const untagging = panel.getByRole('dialog', { name: 'Remove a tag from 2 bookmarks' });
    await untagging.getByRole('combobox', { name: 'Tag to remove' }).selectOption('beta');
    await untagging.getByRole('button', { name: 'Remove tag', exact: true }).click();
    await expect.poll(async () => (await get(second.id)).tags.sort(), { timeout: 20_000 }).toEqual(['alpha', 'gamma']);
    expect((await get(first.id)).tags.sort()).toEqual(['alpha', 'gamma', 'keep']);
    await panel.close();
  }, 60_000);
});
