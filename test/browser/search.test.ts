import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Collection } from '../../lib/api/collections.ts';
import { type ExtensionBrowser, type ShelfProcess, dataOf, launchExtension, signInThroughOptions, startShelf } from './support.ts';

describe('search with operators in the side panel, in Chromium', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;
  const problems: string[] = [];

  beforeAll(async () => {
    [shelf, browser] = await Promise.all([startShelf(), launchExtension()]);
    const reading = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Reading' }));
    const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: 'd', ...body });
    await save({ url: 'https://example.com/guide', title: 'Fermenting guide', tags: ['food'], collectionId: reading.id });
    await save({ url: 'https://example.com/kimchi', title: 'Kimchi at home', tags: ['food/korean'], collectionId: reading.id });
    await save({ url: 'https://example.com/bikes', title: 'Bike repair', tags: ['repair'], collectionId: reading.id });
    await save({ url: 'https://other.org/bread', title: 'Sourdough', tags: ['food'], collectionId: reading.id });
    await save({ url: 'https://example.com/elsewhere', title: 'Not in Reading', tags: ['food'] });
    await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop()]);
  });

  it('searches #tag site: inside a collection and shows only its matches, the filters as chips', async () => {
    const panel = await browser.context.newPage();
    panel.on('pageerror', (error) => problems.push(error.message));
    await panel.goto(browser.url('sidepanel.html'));
    await panel.getByRole('navigation', { name: 'Library' }).getByRole('button', { name: /^Reading/ }).click();
    await panel.getByRole('link', { name: 'Sourdough' }).waitFor();

    await panel.getByRole('searchbox', { name: 'Search in Reading' }).fill('#food site:example.com');
    const results = panel.getByRole('list', { name: 'Search results for #food site:example.com' });
    await expect.poll(async () => (await results.getByRole('link').allTextContents()).sort(), { timeout: 15_000 }).toEqual(['Fermenting guide', 'Kimchi at home']);
    expect(await panel.getByRole('status').filter({ hasText: 'found' }).textContent()).toBe('2 bookmarks found.');
    expect(await panel.getByRole('list', { name: 'Search filters' }).getByRole('listitem').allTextContents()).toEqual(['Tag: food (and tags under it)', 'Site: example.com']);
    expect(problems).toEqual([]);
  });
});
