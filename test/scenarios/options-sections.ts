import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import type { Tag } from '../../lib/api/tags.ts';
import { type ShelfProcess, dataOf, startShelf } from '../browser/support.ts';
import { netscapeHtml } from '../support/import-files.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';
import { POLL_SERVER } from '../support/poll-server.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: { permissions: { getAll(): Promise<{ origins?: string[] }> } };

export interface OptionsSectionsOptions {
  /**
   * Gives Shelf access to these origins from outside the page, as the browser's own extension settings do
   * (Firefox's about:addons → Permissions); absent where a test cannot (Chromium grants optional host access
   * only from its prompt, which headless Chromium shows to no one).
   */
  grantSiteAccess?: (origins: string[]) => Promise<void>;
}

/** Local pages for the server's link checker: one answering 404, the others fine. */
async function startPages(): Promise<{ origin: string; close(): Promise<void> }> {
  const pages = http.createServer((req, res) => {
    if (req.url?.startsWith('/gone')) res.writeHead(404).end('not here');
    else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>Fine</title>');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(pages.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => (pages.closeAllConnections(), pages.close(() => resolve()))),
  };
}

/** The visible text of the page, as the user reads it. */
const shownText = (page: UserPage) => page.evaluate(() => document.body.innerText, undefined);

/**
 * Every section of the options page, used as a user uses it, against the real server: one description of the
 * user's steps, run in Firefox (test/firefox/options-sections.test.ts) and wherever else it is called.
 */
export function optionsSectionsScenarios(launch: () => Promise<ExtensionUser>, options: OptionsSectionsOptions = {}): void {
  describe('every section of the options page', () => {
    let shelf: ShelfProcess;
    let user: ExtensionUser;
    let pages: Awaited<ReturnType<typeof startPages>>;
    let page: UserPage;
    const trashed: Record<string, Bookmark> = {};

    const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: '', ...body }).then((res) => dataOf<Bookmark>(res));
    const get = (id: string) => shelf.api('GET', `/bookmarks/${id}`).then((res) => dataOf<Bookmark>(res));
    const collections = async () => dataOf<Collection[]>(await shelf.api('GET', '/collections'));
    const tags = async () => dataOf<Tag[]>(await shelf.api('GET', '/tags'));
    const openSection = async (name: string) => {
      await page.click('link', name);
      await page.waitFor('heading', name);
    };
    const waitForText = (text: string, timeout = 15_000) => expect.poll(() => shownText(page), { timeout, interval: 200 }).toContain(text);
    /**
     * What the server holds, once the change the page sent has reached it: the page shows a change at once, and
     * the background sends it as its share of the request budget allows (the index sync after sign-in spends it).
     */
    const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 40_000, interval: 300 });

    beforeAll(async () => {
      pages = await startPages();
      // Raised limits: the saves below go in at once. The link checker runs for real, at once, against the pages above.
      [shelf, user] = await Promise.all([
        startShelf(['--raise-limits', '--allow-private-fetch', '--link-check', '--link-check-pace-ms', '0', '--link-check-timeout-ms', '1500', '--link-check-poll-ms', '200']),
        launch(),
      ]);
      const url = (path: string) => `${pages.origin}${path}`;
      for (const [i, names] of [['reading'], ['reading', 'toread'], ['toread']].entries()) await save({ url: url(`/tagged/${i}`), title: `Tagged ${i}`, tags: names });
      for (let i = 1; i <= 3; i++) await save({ url: url(`/news/${i}`), title: `News ${i}`, tags: ['news/world'] });
      for (const title of ['Old page', 'Older page']) {
        trashed[title] = await save({ url: url(`/${title.replace(' ', '-')}`), title });
        await shelf.api('DELETE', `/bookmarks/${trashed[title]!.id}`);
      }
      await save({ url: url('/gone/post'), title: 'Gone post' });
      page = await signIn(user, shelf);
    }, 120_000);

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop(), pages?.close()]);
    });

    it('Account: shows the signed-in account, kept across a reload', async () => {
      await page.reload();
      await openSection('Account');
      const account = await page.textOf('region', 'Signed in');
      expect(account).toContain('Local user');
      expect(account).toContain(shelf.baseUrl);
    });

    it('Collections: creates, renames, nests and deletes collections', { timeout: 90_000 }, async () => {
      await openSection('Collections');
      for (const name of ['Projects', 'Archive']) {
        await page.fill('New collection', name);
        await page.click('button', 'Create');
        await eventually(async () => (await collections()).map((c) => c.name)).toContain(name);
        // Made, as the page shows it (the field emptied; Create is disabled until then), before the next name.
        await eventually(() => page.valueOf('New collection')).toBe('');
      }
      await page.clickStartingWith('treeitem', 'Projects');
      await page.fill('Name', 'Work');
      await page.click('button', 'Save');
      await eventually(async () => (await collections()).map((c) => c.name).sort()).toEqual(['Archive', 'Work']);

      await page.fill('New collection inside “Work”', 'Drafts');
      await page.click('button', 'Create inside');
      await eventually(async () => (await collections()).find((c) => c.name === 'Drafts')?.parentId).toBe((await collections()).find((c) => c.name === 'Work')!.id);

      await page.click('button', 'Delete…');
      await page.waitFor('dialog', 'Delete “Work”?');
      expect(await page.textOf('dialog', 'Delete “Work”?')).toContain('goes to the trash with 1 collection inside it');
      await page.clickIn(['dialog', 'Delete “Work”?'], 'button', 'Move to trash');
      await page.waitFor('dialog', 'Delete “Work”?', { gone: true });
      await eventually(async () => (await collections()).map((c) => c.name)).toEqual(['Archive']);
      await page.waitFor('list', 'Collections in the trash');
      expect(await page.textOf('list', 'Collections in the trash')).toContain('Work');
    });

    it('Tags: renames a tag and merges another into it', { timeout: 90_000 }, async () => {
      await openSection('Tags');
      await page.clickStartingWith('treeitem', 'reading');
      await page.fill('Name (renames it on every bookmark)', 'read');
      await page.click('button', 'Rename');
      await eventually(async () => (await tags()).map((t) => t.name).sort()).toEqual(['news', 'news/world', 'read', 'toread']);

      await page.clickStartingWith('treeitem', 'toread');
      await page.click('button', 'Merge into…');
      await page.fill('Filter tags', 'read');
      await page.select('Merge into', 'read (2 bookmarks)');
      await page.clickIn(['dialog', 'Merge “toread” into…'], 'button', 'Merge');
      await page.waitFor('dialog', 'Merge “toread” into…', { gone: true });
      await eventually(async () => (await tags()).filter((t) => !t.name.startsWith('news')).map((t) => [t.name, t.count])).toEqual([['read', 3]]);
    });

    it('Smart folders: creates one of two conditions and previews what it matches', { timeout: 90_000 }, async () => {
      await openSection('Smart folders');
      await page.click('button', 'New smart folder');
      await page.fill('Name', 'World news');
      await page.select('Condition 1 operator', 'contains');
      await page.fill('Condition 1 value', 'news');
      await page.click('button', 'Add condition');
      await page.select('Condition 2 field', 'Times opened');
      await page.select('Condition 2 operator', 'at most');
      await page.fill('Condition 2 value', '5');
      await page.click('button', 'Create smart folder');
      await waitForText('2 conditions, all must hold');

      await page.click('button', 'Preview World news');
      await page.waitFor('link', 'News 1');
      const matches = await page.textOf('list', 'First matches of World news');
      for (const title of ['News 1', 'News 2', 'News 3']) expect(matches).toContain(title);
      expect(matches).not.toContain('Tagged');
    });

    it('Duplicates: merges a group into the copy with the most data', { timeout: 90_000 }, async () => {
      await save({ url: 'http://dup.example/article', title: 'Plain copy' });
      const rich = await save({ url: 'https://www.dup.example/article/', title: 'Rich copy', tags: ['css'], note: 'Read twice.' });
      await save({ url: 'https://dup.example/article?utm_source=feed', title: 'Feed copy', tags: ['layout'] });
      await openSection('Duplicates');
      await page.click('button', 'Search again');
      await page.click('button', 'Merge the duplicates of dup.example/article');
      await waitForText('Merged 1 group of 1: moved 2 duplicates to the trash.');
      expect([...(await get(rich.id)).tags].sort()).toEqual(['css', 'layout']);
    });

    it('Trash: restores a bookmark, then empties the trash', { timeout: 90_000 }, async () => {
      await openSection('Trash');
      await page.click('button', 'Restore Old page');
      await waitForText('Restored “Old page”.');
      expect((await get(trashed['Old page']!.id)).deletedAt).toBeNull();

      await page.click('button', 'Empty trash');
      await page.clickIn(['alertdialog', 'Empty the trash?'], 'button', 'Empty trash');
      await waitForText('Emptied the trash:');
      await waitForText('The trash is empty.');
      expect(dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks/trash?limit=100')).data).toEqual([]);
    });

    it('Broken links: lists a page that answers 404 in its group, with its archived copy', async () => {
      await expect.poll(async () => dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.find((b) => b.title === 'Gone post')?.linkStatus, POLL_SERVER).toBe('broken');
      await openSection('Broken links');
      // The group shows its count before its list has come.
      await expect.poll(() => page.textOf('region', 'Gone (1)')).toContain('Gone post');
      const gone = await page.textOf('region', 'Gone (1)');
      expect(gone).toContain('Answered 404');
      expect(await page.count('link', 'Open archived copy of Gone post')).toBe(1);
      expect(await shownText(page)).not.toContain('News 1');
    });

    it('Import and export: imports a file whose folders become collections, and downloads an export', { timeout: 90_000 }, async () => {
      const file = netscapeHtml();
      await openSection('Import and export');
      await page.chooseFile('File to import', { name: file.name, type: 'text/html', text: file.content.toString() });
      await page.click('button', 'Import file');
      await waitForText(`Imported ${file.bookmarks.length} bookmarks`, 20_000);
      const names = (await collections()).map((c) => c.name);
      expect(names).toEqual(expect.arrayContaining(file.collections.map((path) => path.at(-1))));

      await page.click('radio', 'CSV (a spreadsheet)');
      await page.click('button', 'Export library');
      await waitForText('Downloaded shelf-export-', 20_000);
      await expect.poll(async () => (await user.downloads()).map((d) => d.fileName), { timeout: 10_000 }).toEqual([expect.stringMatching(/^shelf-export-\d{4}-\d{2}-\d{2}\.csv$/)]);
      const [csv] = await user.downloads();
      expect(csv!.text).toContain(`${pages.origin}/news/1`);
      expect(csv!.text).toContain(file.bookmarks[0]!.url);
    });

    it('Quick saves: the chosen collection is kept', { timeout: 90_000 }, async () => {
      await openSection('Quick saves');
      await page.click('radio', 'A collection you choose');
      await page.select('Collection for quick saves', 'Archive');
      await page.reload();
      await openSection('Quick saves');
      const archive = (await collections()).find((c) => c.name === 'Archive')!;
      await eventually(() => page.valueOf('Collection for quick saves')).toBe(archive.id);
    });

    it('Covers: turns automatic covers on with a share of the storage, kept across a reload', { timeout: 90_000 }, async () => {
      await openSection('Covers');
      await waitForText('Automatic covers have used 0 MB');
      await page.select('Share of cover storage automatic covers may use', '20% (100 MB of 500 MB)');
      await waitForText('Automatic covers have used 0 MB of 100 MB (0 covers).');
      await page.reload();
      await openSection('Covers');
      await eventually(() => page.valueOf('Share of cover storage automatic covers may use')).toBe('20');
    });

    const { grantSiteAccess } = options;
    if (!grantSiteAccess) return;

    it('Site access: lists the sites Shelf may read and removes one', async () => {
      await openSection('Site access');
      await waitForText('No other site.');
      await grantSiteAccess(['https://images.example/*', 'https://photos.example/*']);
      await page.waitFor('button', 'Remove https://images.example');
      expect(await page.textOf('list', 'Sites Shelf may read')).toContain('https://photos.example');
      // The local server, granted by the manifest, is never listed: there is nothing to remove.
      expect(await shownText(page)).not.toContain('http://127.0.0.1');

      await page.click('button', 'Remove https://images.example');
      await page.waitFor('button', 'Remove https://images.example', { gone: true });
      const granted = await page.evaluate(() => chrome.permissions.getAll(), undefined);
      expect(granted.origins).not.toContain('https://images.example/*');
      expect(granted.origins).toContain('https://photos.example/*');
    });
  });
}
