import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { type ShelfProcess, type Site, dataOf, startShelf, startSite } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser } from './user.ts';

/**
 * Never overwrite what the user did not see (issue 18, point 1): a Raindrop.io export is imported from the options
 * page, then one of its pages is opened and saved from the popup with one tag added. The popup knows the page (✓)
 * and the save changes that tag alone: the title, description, note, other tags, collection, favourite, cover and
 * dates stay as the import left them, though the tab's own title and description differ from the file's.
 * Run in Chromium (test/browser/import-then-save.test.ts) and Firefox (test/firefox/import-then-save.test.ts).
 */
export function importThenSaveScenarios(launch: () => Promise<ExtensionUser>): void {
  describe('importing a file, then saving one of its pages from the popup', () => {
    let shelf: ShelfProcess;
    let site: Site;
    let user: ExtensionUser;

    beforeAll(async () => {
      [shelf, site, user] = await Promise.all([
        startShelf(),
        // What the tab shows is not what the file says: a popup that took the tab's values would be caught.
        startSite({ '/guide': 'The tab’s own title', '/other': 'Another page' }),
        launch(),
      ]);
    }, 60_000);

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop(), site?.close()]);
    });

    /** A Raindrop.io backup, as Raindrop writes it, of two pages of the local site: six tags, a nested folder, a favourite. */
    const raindropExport = () => ({
      name: 'raindrop-backup.csv',
      text: [
        'id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite',
        `101,"A guide, from Raindrop",Read the second half,What the guide is about,${site.url('/guide')},Work / Guides,"css, layout, grid, web, reference, later",2024-05-01T14:00:00.000Z,,,true`,
        `102,Another page,,,${site.url('/other')},Unsorted,,2024-05-02T14:00:00.000Z,,,false`,
        '',
      ].join('\n'),
    });

    const bookmarkAt = async (url: string): Promise<Bookmark[]> =>
      dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.filter((b) => b.url === url);

    it('shows the imported page as saved, and a save from the popup changes only the tag the user added', { timeout: 90_000 }, async () => {
      const options = await signIn(user, shelf);
      await options.click('link', 'Import and export');
      await options.chooseFile('File to import', raindropExport());
      await options.click('button', 'Import file');
      const shown = () => options.evaluate(() => document.body.innerText, undefined);
      await expect.poll(shown, { timeout: 30_000, interval: 500 }).toMatch(/Imported 2 bookmarks/);

      const guideUrl = site.url('/guide');
      const [imported] = await bookmarkAt(guideUrl);
      const guides = dataOf<Collection[]>(await shelf.api('GET', '/collections')).find((c) => c.name === 'Guides');
      // What the import left, checked once so that "unchanged" below means the file's values.
      expect(imported).toMatchObject({
        title: 'A guide, from Raindrop',
        description: 'What the guide is about',
        note: 'Read the second half',
        collectionId: guides?.id,
        isFavorite: true,
        createdAt: '2024-05-01T14:00:00.000Z',
      });
      expect([...imported!.tags].sort()).toEqual(['css', 'grid', 'later', 'layout', 'reference', 'web']);

      const tabId = await user.openTab(guideUrl);
      // The index caught up with the import: the page shows as saved, in the badge and in the popup.
      await expect.poll(() => user.badge(tabId), { timeout: 20_000, interval: 500 }).toBe('✓');
      const popup = await user.open(`popup.html?tabId=${tabId}`);
      await popup.waitFor('heading', 'Saved in Shelf', { timeoutMs: 15_000 });
      expect(await popup.valueOf('Title')).toBe('A guide, from Raindrop');
      expect(await popup.valueOf('Note')).toBe('Read the second half');
      await popup.waitFor('button', 'Collection: Work › Guides');
      await popup.waitFor('button', 'Remove tag reference');

      await popup.fill('Tags', 'to reread');
      await popup.press('Enter');
      await popup.waitFor('button', 'Remove tag to reread');
      await popup.click('button', 'Update');

      await expect.poll(async () => (await bookmarkAt(guideUrl))[0]?.tags.length, { timeout: 15_000, interval: 500 }).toBe(7);
      const after = await bookmarkAt(guideUrl);
      expect(after).toHaveLength(1);
      const [saved] = after;
      expect([...saved!.tags].sort()).toEqual([...imported!.tags, 'to reread'].sort());
      // Every other field as the import left it (updatedAt says when it changed; it is the one date that moves).
      const { tags: _savedTags, updatedAt: _savedAt, ...rest } = saved!;
      const { tags: _importedTags, updatedAt: _importedAt, ...importedRest } = imported!;
      expect(rest).toEqual(importedRest);
      await popup.close();
      await options.close();
    });
  });
}
