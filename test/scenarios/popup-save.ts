import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { type ShelfProcess, type Site, dataOf, startShelf, startSite } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';

/**
 * Saving the page in front through the popup, then opening the popup again on the saved page to edit it.
 * One description of the user's steps, run in Chromium (test/browser/popup-save.test.ts) and Firefox
 * (test/firefox/popup-save.test.ts).
 */
export function popupSaveScenarios(launch: () => Promise<ExtensionUser>): void {
  describe('saving a page through the popup, and editing it there', () => {
    let shelf: ShelfProcess;
    let site: Site;
    let user: ExtensionUser;
    let collection: Collection;
    let pageUrl: string;
    let tabId: number;

    beforeAll(async () => {
      [shelf, site, user] = await Promise.all([startShelf(), startSite({ '/article': 'An article worth keeping' }), launch()]);
      // What the user already has: one tag and one collection, made through the API.
      dataOf(await shelf.api('POST', '/tags', { name: 'reading' }));
      collection = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Research' }));
      await signIn(user, shelf);
      pageUrl = site.url('/article');
      tabId = await user.openTab(pageUrl);
    });

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop(), site?.close()]);
    });

    const openPopup = (): Promise<UserPage> => user.open(`popup.html?tabId=${tabId}`);
    const bookmarksAt = async (url: string) =>
      dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.filter((b) => b.url === url);
    /** Each chosen tag shows as a chip with its own "Remove tag <name>" button. */
    const expectChosenTags = async (popup: UserPage, names: string[]) => {
      for (const name of names) await popup.waitFor('button', `Remove tag ${name}`);
    };

    it('saves the tab with an existing tag, a new tag, a collection, a note and a favourite, and shows ✓', async () => {
      const popup = await openPopup();
      await popup.waitFor('heading', 'Save to Shelf');
      // The form shows before the tab is known: its title fills in when the browser answers.
      await expect.poll(() => popup.valueOf('Title')).toBe('An article worth keeping');
      expect(await user.badge(tabId)).toBe('');
      // Focused by the page itself (autofocus in the pre-rendered form), ready for the first tag.
      expect(await popup.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent?.trim(), undefined)).toBe('Tags');

      await popup.fill('Tags', 'rea');
      await popup.click('option', 'reading');
      await popup.fill('Tags', 'fresh find');
      await popup.press('Enter');
      await expectChosenTags(popup, ['reading', 'fresh find']);

      await popup.click('button', 'Collection: Unsorted');
      await popup.waitFor('dialog', 'Choose a collection');
      await popup.click('treeitem', 'Research');
      await popup.waitFor('button', 'Collection: Research');

      await popup.fill('Note', 'Read the second half again');
      await popup.click('checkbox', 'Favorite');
      await popup.click('button', 'Save');

      await popup.waitFor('heading', 'Saved in Shelf');
      expect(await popup.textOf('status')).toContain('Saved');
      const saved = await bookmarksAt(pageUrl);
      expect(saved).toHaveLength(1);
      expect(saved[0]).toMatchObject({ title: 'An article worth keeping', collectionId: collection.id, note: 'Read the second half again', isFavorite: true });
      expect([...saved[0]!.tags].sort()).toEqual(['fresh find', 'reading']);
      await expect.poll(() => user.badge(tabId), { timeout: 10_000 }).toBe('✓');
      await popup.close();
    });

    it('reopens on the saved bookmark with its values, and Update sends what was changed', async () => {
      const popup = await openPopup();
      await popup.waitFor('heading', 'Saved in Shelf');
      await popup.waitFor('button', 'Move to trash');
      expect(await popup.count('button', 'Save')).toBe(0);
      expect(await popup.valueOf('Title')).toBe('An article worth keeping');
      await expectChosenTags(popup, ['reading', 'fresh find']);
      await popup.waitFor('button', 'Collection: Research');
      expect(await popup.valueOf('Note')).toBe('Read the second half again');
      // Nothing changed yet: Update has nothing to send.
      expect(await popup.isDisabled('button', 'Update')).toBe(true);

      await popup.fill('Note', 'Read it all again');
      await popup.click('button', 'Remove tag fresh find');
      await popup.click('button', 'Update');

      await expect.poll(async () => (await bookmarksAt(pageUrl))[0]?.note, { timeout: 10_000, interval: 500 }).toBe('Read it all again');
      const [edited] = await bookmarksAt(pageUrl);
      expect(edited).toMatchObject({ title: 'An article worth keeping', collectionId: collection.id, isFavorite: true, tags: ['reading'] });
      expect(await bookmarksAt(pageUrl)).toHaveLength(1);
      expect(await user.badge(tabId)).toBe('✓');
      await popup.close();
    });
  });
}
