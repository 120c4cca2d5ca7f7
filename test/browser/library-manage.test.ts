import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { type ExtensionBrowser, type ShelfProcess, dataOf, launchExtension, signInThroughOptions, startShelf } from './support.ts';

/**
 * Cleaning up and managing the library where the user browses (issue 18), in Chromium: the server checks links
 * for real (`--link-check`, this computer's pages allowed, no pace; raised limits: the fixtures' saves go in at once), against local pages that answer 404, redirect
 * for good or never answer.
 */
describe('cleaning up and managing the library, in Chromium', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;
  let pages: http.Server;
  let origin: string;
  let problems: string[] = [];
  /** What /back answers: gone at first, then back again. */
  let backAnswers = 404;

  const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: '', ...body }).then((res) => dataOf<Bookmark>(res));
  const get = (id: string) => shelf.api('GET', `/bookmarks/${id}`).then((res) => dataOf<Bookmark>(res));

  beforeAll(async () => {
    pages = http.createServer((req, res) => {
      if (req.url?.startsWith('/gone')) res.writeHead(404).end('not here');
      else if (req.url?.startsWith('/moved')) res.writeHead(301, { Location: '/new-home' }).end();
      else if (req.url?.startsWith('/silent')) return; // never answers
      else if (req.url?.startsWith('/back')) res.writeHead(backAnswers).end();
      else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>Fine</title>');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    [shelf, browser] = await Promise.all([
      startShelf(['--raise-limits', '--allow-private-fetch', '--link-check', '--link-check-pace-ms', '0', '--link-check-timeout-ms', '1500', '--link-check-poll-ms', '200']),
      launchExtension(),
    ]);
    await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
  }, 60_000);

  afterAll(async () => {
    pages?.closeAllConnections();
    await Promise.all([browser?.close(), shelf?.stop(), new Promise((resolve) => (pages ? pages.close(resolve) : resolve(undefined)))]);
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

  it('reports dead links after a check: a page answering 404, one moved for good, one never answering, each in its group', async () => {
    const gone = await save({ url: `${origin}/gone/post`, title: 'Gone post' });
    const moved = await save({ url: `${origin}/moved/page`, title: 'Moved page' });
    const silent = await save({ url: `${origin}/silent/page`, title: 'Silent page' });
    await save({ url: `${origin}/fine`, title: 'Fine page' });
    await expect.poll(async () => (await get(silent.id)).linkStatus, { timeout: 20_000 }).toBe('unreachable');
    expect(await get(gone.id)).toMatchObject({ linkStatus: 'broken', httpStatusCode: 404 });
    expect(await get(moved.id)).toMatchObject({ linkStatus: 'redirected', httpStatusCode: 301 });

    const options = await open('options.html#broken-links');
    const group = (name: RegExp) => options.getByRole('region', { name });
    await group(/^Gone \(1\)$/).getByText('Gone post').waitFor();
    expect(await group(/^Gone \(1\)$/).getByText(/Answered 404/).count()).toBe(1);
    await group(/^Moved \(1\)$/).getByText('Moved page').waitFor();
    await group(/^Unreachable \(1\)$/).getByText('Silent page').waitFor();
    expect(await group(/^Unreachable \(1\)$/).getByText(/No answer/).count()).toBe(1);
    expect(await options.getByText('Fine page').count()).toBe(0);
    expect(await group(/^Gone \(1\)$/).getByRole('link', { name: 'Open archived copy of Gone post' }).getAttribute('href')).toBe(
      `https://web.archive.org/web/*/${origin}/gone/post`,
    );
    await options.close();
  }, 60_000);

  it('Re-check in the open Broken links view: a page that answers again leaves its group without reading the view again', async () => {
    const back = await save({ url: `${origin}/back/page`, title: 'Back page' });
    await expect.poll(async () => (await get(back.id)).linkStatus, { timeout: 20_000 }).toBe('broken');
    const options = await open('options.html#broken-links');
    const row = options.getByRole('listitem').filter({ hasText: 'Back page' });
    await row.getByText(/Answered 404/).waitFor();

    backAnswers = 200;
    await options.getByRole('button', { name: 'Re-check Back page', exact: true }).click();
    await options.getByRole('status').getByText('Re-checked: 1 link works again.').waitFor({ timeout: 20_000 });
    expect(await options.getByText('Back page').count()).toBe(0);
    expect(await get(back.id)).toMatchObject({ linkStatus: 'ok', httpStatusCode: 200 });
    await options.close();
  }, 60_000);

  it('merges a duplicate group in the Duplicates view: the kept one gets the others’ tags and notes, the others go to the trash', async () => {
    const plain = await save({ url: 'http://dup.example/article', title: 'Plain copy' });
    const rich = await save({ url: 'https://www.dup.example/article/', title: 'Rich copy', tags: ['css', 'web'], note: 'Read twice.' });
    const other = await save({ url: 'https://dup.example/article?utm_source=feed', title: 'Feed copy', tags: ['layout'], note: 'From the feed.' });

    const options = await open('options.html#duplicates');
    const group = options.getByRole('group', { name: 'Duplicates of dup.example/article' });
    await group.waitFor({ timeout: 15_000 });
    expect(await group.getByRole('radio', { name: 'Keep Rich copy (https://www.dup.example/article/)' }).isChecked()).toBe(true);
    await group.getByRole('button', { name: 'Merge the duplicates of dup.example/article' }).click();
    await options.getByText('Merged 1 group of 1: moved 2 duplicates to the trash.').waitFor({ timeout: 15_000 });

    const kept = await get(rich.id);
    expect([...kept.tags].sort()).toEqual(['css', 'layout', 'web']);
    expect(kept.note).toBe('Read twice.\n\nFrom the feed.');
    const trash = JSON.stringify((await shelf.api('GET', '/bookmarks/trash?limit=100')).body);
    expect(trash).toContain(plain.id);
    expect(trash).toContain(other.id);
    expect(trash).not.toContain(rich.id);
    await options.close();
  }, 60_000);

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
