import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type ShelfProcess, dataOf, startShelf } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';

/**
 * Cleaning up the library (issue 18): dead links reported in their groups and re-checked, a duplicate group merged.
 * The server checks links for real (`--link-check`, this computer's pages allowed, no pace; raised limits: the
 * fixtures' saves go in at once), against local pages that answer 404, redirect for good or never answer. One
 * description of the user's steps, run in Chromium (test/browser/library-manage.test.ts) and Firefox
 * (test/firefox/library-clean-up.test.ts).
 */
export function cleanUpScenarios(launch: () => Promise<ExtensionUser>): void {
  describe('cleaning up the library: broken links and duplicates', () => {
    let shelf: ShelfProcess;
    let user: ExtensionUser;
    let pages: http.Server;
    let origin: string;
    /** What /back answers: gone at first, then back again. */
    let backAnswers = 404;
    let options: UserPage | undefined;

    const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: '', ...body }).then((res) => dataOf<Bookmark>(res));
    // Looked at every 500 ms: each look is an API request from the extension's address, under the gateway's 60 a minute.
    const get = (id: string) => shelf.api('GET', `/bookmarks/${id}`).then((res) => dataOf<Bookmark>(res));
    const shownText = (page: UserPage) => page.evaluate(() => document.body.innerText, undefined);
    const shows = (page: UserPage, text: string, timeout = 15_000) => expect.poll(() => shownText(page), { timeout, interval: 200 }).toContain(text);
    /** The text of the list item that holds `text` (a bookmark's row), or null while none does. */
    const rowText = (page: UserPage, text: string) =>
      page.evaluate((wanted) => [...document.querySelectorAll('li')].find((row) => row.innerText.includes(wanted))?.innerText ?? null, text);
    /** What the page's status lines say now, one a line. */
    const statusTexts = (page: UserPage) =>
      page.evaluate(() => [...document.querySelectorAll('[role="status"]')].map((line) => line.textContent ?? '').join('\n'), undefined);
    /** A section of the options page (its address's #fragment), in a tab of its own. */
    const openOptions = async (section: string) => (options = await user.open(`options.html#${section}`));

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
      [shelf, user] = await Promise.all([
        startShelf(['--raise-limits', '--allow-private-fetch', '--link-check', '--link-check-pace-ms', '0', '--link-check-timeout-ms', '1500', '--link-check-poll-ms', '200']),
        launch(),
      ]);
      await (await signIn(user, shelf)).close();
    }, 60_000);

    afterAll(async () => {
      pages?.closeAllConnections();
      await Promise.all([user?.close(), shelf?.stop(), new Promise((resolve) => (pages ? pages.close(resolve) : resolve(undefined)))]);
    });

    afterEach(async () => {
      if (!options) return;
      expect(options.errors()).toEqual([]);
      await options.close();
      options = undefined;
    });

    it('reports dead links after a check: a page answering 404, one moved for good, one never answering, each in its group', async () => {
      const gone = await save({ url: `${origin}/gone/post`, title: 'Gone post' });
      const moved = await save({ url: `${origin}/moved/page`, title: 'Moved page' });
      const silent = await save({ url: `${origin}/silent/page`, title: 'Silent page' });
      await save({ url: `${origin}/fine`, title: 'Fine page' });
      await expect.poll(async () => (await get(silent.id)).linkStatus, { timeout: 20_000, interval: 500 }).toBe('unreachable');
      expect(await get(gone.id)).toMatchObject({ linkStatus: 'broken', httpStatusCode: 404 });
      expect(await get(moved.id)).toMatchObject({ linkStatus: 'redirected', httpStatusCode: 301 });

      const page = await openOptions('broken-links');
      // A group shows before its rows have their titles: each waited for.
      const group = (name: string) => page.textOf('region', name);
      const inGroup = (name: string, title: string) => expect.poll(() => group(name), { timeout: 10_000, interval: 200 }).toContain(title);
      await inGroup('Gone (1)', 'Gone post');
      expect((await group('Gone (1)')).match(/Answered 404/g)).toHaveLength(1);
      await inGroup('Moved (1)', 'Moved page');
      await inGroup('Unreachable (1)', 'Silent page');
      expect((await group('Unreachable (1)')).match(/No answer/g)).toHaveLength(1);
      expect(await shownText(page)).not.toContain('Fine page');
      expect(await page.attributeOf('link', 'Open archived copy of Gone post', 'href')).toBe(`https://web.archive.org/web/*/${origin}/gone/post`);
    }, 60_000);

    it('Re-check in the open Broken links view: a page that answers again leaves its group without reading the view again', async () => {
      const back = await save({ url: `${origin}/back/page`, title: 'Back page' });
      await expect.poll(async () => (await get(back.id)).linkStatus, { timeout: 20_000, interval: 500 }).toBe('broken');
      const page = await openOptions('broken-links');
      await expect.poll(() => rowText(page, 'Back page'), { timeout: 15_000, interval: 200 }).toMatch(/Answered 404/);

      backAnswers = 200;
      await page.click('button', 'Re-check Back page');
      await expect.poll(() => statusTexts(page), { timeout: 20_000, interval: 200 }).toContain('Re-checked: 1 link works again.');
      expect(await shownText(page)).not.toContain('Back page');
      expect(await get(back.id)).toMatchObject({ linkStatus: 'ok', httpStatusCode: 200 });
    }, 60_000);

    it('merges a duplicate group in the Duplicates view: the kept one gets the others’ tags and notes, the others go to the trash; a group found later is shown with its count', async () => {
      const plain = await save({ url: 'http://dup.example/article', title: 'Plain copy' });
      const rich = await save({ url: 'https://www.dup.example/article/', title: 'Rich copy', tags: ['css', 'web'], note: 'Read twice.' });
      const other = await save({ url: 'https://dup.example/article?utm_source=feed', title: 'Feed copy', tags: ['layout'], note: 'From the feed.' });

      const page = await openOptions('duplicates');
      await page.waitFor('group', 'Duplicates of dup.example/article', { timeoutMs: 15_000 });
      expect(await page.isChecked('radio', 'Keep Rich copy (https://www.dup.example/article/)')).toBe(true);
      await page.clickIn(['group', 'Duplicates of dup.example/article'], 'button', 'Merge the duplicates of dup.example/article');
      await shows(page, 'Merged 1 group of 1: moved 2 duplicates to the trash.');

      const kept = await get(rich.id);
      expect([...kept.tags].sort()).toEqual(['css', 'layout', 'web']);
      expect(kept.note).toBe('Read twice.\n\nFrom the feed.');
      const trash = JSON.stringify((await shelf.api('GET', '/bookmarks/trash?limit=100')).body);
      expect(trash).toContain(plain.id);
      expect(trash).toContain(other.id);
      expect(trash).not.toContain(rich.id);

      // No group left; a new one found by Search again is shown in the very render that counts it, not a frame
      // and a resize observation later (the list was measured 0 px high while it had no group).
      expect(await shownText(page)).toContain('No duplicates.');
      await save({ url: 'https://again.example/post', title: 'First post' });
      await save({ url: 'http://www.again.example/post/', title: 'Second post' });
      await page.evaluate(() => {
        const seen = window as unknown as { groupShownWithCount?: boolean };
        new MutationObserver(() => {
          const counted = [...document.querySelectorAll('[role="status"]')].some((line) => line.textContent?.startsWith('1 group of duplicates'));
          if (counted && seen.groupShownWithCount === undefined) seen.groupShownWithCount = document.querySelector('button[aria-label="Merge the duplicates of again.example/post"]') !== null;
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      }, undefined);
      await page.click('button', 'Search again');
      await page.waitFor('group', 'Duplicates of again.example/post', { timeoutMs: 15_000 });
      expect(await page.evaluate(() => (window as unknown as { groupShownWithCount?: boolean }).groupShownWithCount, undefined)).toBe(true);
    }, 60_000);
  });
}
