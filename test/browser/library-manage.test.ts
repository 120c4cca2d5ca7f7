import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
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
});
