import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { type ShelfProcess, dataOf, requestFromTests, startShelf } from '../browser/support.ts';
import { png } from '../support/images.ts';
import { openPanelOnLibrary } from './side-panel.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';
import { POLL_SERVER } from '../support/poll-server.ts';

/**
 * Managing the library where the user browses (issue 18): every field of a bookmark edited from the side panel,
 * its Trash list with restore and delete for good, and several tags added to a selection at once, then one
 * removed. The side panel's page in a tab, as in side-panel.ts. One description, run in Chromium
 * (test/browser/side-panel-manage.test.ts) and Firefox (test/firefox/side-panel-manage.test.ts).
 */
export function sidePanelManageScenarios(launch: () => Promise<ExtensionUser>): void {
  describe('managing bookmarks from the side panel', () => {
    let shelf: ShelfProcess;
    let user: ExtensionUser;
    let reading: Collection;
    let opened: UserPage[] = [];

    const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: '', ...body }).then((res) => dataOf<Bookmark>(res));
    const get = (id: string) => shelf.api('GET', `/bookmarks/${id}`).then((res) => dataOf<Bookmark>(res));
    const trashed = async () => JSON.stringify((await shelf.api('GET', '/bookmarks/trash?limit=100')).body);
    /** Gives the bookmark a cover through the API's three steps (the user is on the Pro plan). */
    const addCover = async (id: string) => {
      const { uploadUrl, reservationId } = dataOf<{ uploadUrl: string; reservationId: string }>(await shelf.api('POST', `/bookmarks/${id}/cover/upload-url`));
      const uploaded = await requestFromTests(uploadUrl, { method: 'POST', headers: { 'Content-Type': 'image/png' }, body: png(40, 30) });
      const { storageId } = JSON.parse(uploaded.bytes.toString('utf8')) as { storageId: string };
      dataOf(await shelf.api('POST', `/bookmarks/${id}/cover`, { storageId, reservationId }));
    };
    const openAllBookmarks = async (): Promise<UserPage> => {
      const panel = await openPanelOnLibrary(user);
      opened.push(panel);
      await panel.clickIn(['navigation', 'Library'], 'button', 'All bookmarks');
      await panel.waitFor('region', 'All bookmarks');
      return panel;
    };

    beforeAll(async () => {
      [shelf, user] = await Promise.all([startShelf(), launch()]);
      reading = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Reading' }));
      await (await signIn(user, shelf)).close();
    }, 60_000);

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop()]);
    });

    afterEach(() => {
      expect(opened.flatMap((panel) => panel.errors())).toEqual([]);
      opened = [];
    });

    it('edits every field of a bookmark from the side panel', async () => {
      const before = await save({ url: 'https://edit.example/page', title: 'Before edit', tags: ['old', 'keep'], note: '' });
      await addCover(before.id);
      expect((await get(before.id)).coverImage).not.toBeNull();
      const panel = await openAllBookmarks();
      await panel.click('button', 'Edit Before edit');
      await panel.waitFor('dialog', 'Edit bookmark');
      await panel.fill('Title', 'After edit');
      await panel.fill('URL', 'https://edit.example/moved');
      await panel.fill('Description', 'A description');
      await panel.fill('Note', 'A note');
      await panel.click('button', 'Remove tag old');
      await panel.fill('Tags', 'fresh');
      await panel.press('Enter');
      await panel.waitFor('button', 'Remove tag fresh');
      await panel.clickIn(['dialog', 'Edit bookmark'], 'button', 'Collection: Unsorted');
      await panel.clickIn(['dialog', 'Edit bookmark'], 'treeitem', 'Reading');
      await panel.click('checkbox', 'Favourite');
      await panel.click('checkbox', 'Remove cover');
      await panel.clickIn(['dialog', 'Edit bookmark'], 'button', 'Save');
      await panel.waitFor('link', 'After edit');
      // The row shows the edit at once; the one PATCH follows as the request budget allows.
      await expect.poll(async () => (await get(before.id)).title, POLL_SERVER).toBe('After edit');
      await expect.poll(async () => (await get(before.id)).coverImage, POLL_SERVER).toBeNull();

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

    it('restores a bookmark from the side panel’s Trash, and deletes another for good', async () => {
      const back = await save({ url: 'https://trash.example/back', title: 'Coming back', tags: ['kept'] });
      const gone = await save({ url: 'https://trash.example/gone', title: 'Gone for good' });
      await shelf.api('POST', '/bookmarks/bulk/trash', { ids: [back.id, gone.id] });

      const panel = await openPanelOnLibrary(user);
      opened.push(panel);
      await panel.clickIn(['navigation', 'Library'], 'button', 'Trash');
      await panel.waitFor('region', 'Trashed bookmarks');
      await panel.click('button', 'Restore Coming back');
      await panel.waitForText('Restored “Coming back”.', { timeoutMs: 15_000 });
      await panel.waitFor('button', 'Restore Coming back', { gone: true });
      expect(await get(back.id)).toMatchObject({ title: 'Coming back', tags: ['kept'] });
      expect(await trashed()).not.toContain(back.id);

      await panel.click('button', 'Delete for good: Gone for good');
      await panel.clickIn(['alertdialog', 'Delete this bookmark for good?'], 'button', 'Delete for good');
      await panel.waitForText('Deleted “Gone for good” for good.', { timeoutMs: 15_000 });
      expect((await shelf.api('GET', `/bookmarks/${gone.id}`)).status).toBe(404);
      expect(await trashed()).not.toContain(gone.id);
      await panel.close();
    }, 60_000);

    it('adds several tags to a selection in the side panel at once, then removes one of them from it', async () => {
      const first = await save({ url: 'https://bulk.example/one', title: 'Bulk one', tags: ['keep'] });
      const second = await save({ url: 'https://bulk.example/two', title: 'Bulk two' });
      const panel = await openAllBookmarks();
      const selectBoth = async () => {
        // Checked, whether or not they still were: an action leaves the selection as it is.
        for (const name of ['Select Bulk one', 'Select Bulk two']) if (!(await panel.isChecked('checkbox', name))) await panel.click('checkbox', name);
        await expect.poll(() => panel.textOf('toolbar', 'Selected bookmarks')).toContain('2 selected');
      };
      await selectBoth();

      await panel.clickIn(['toolbar', 'Selected bookmarks'], 'button', 'Tag…');
      await panel.waitFor('dialog', 'Tag 2 bookmarks');
      await panel.fill('Tag name', 'alpha, beta, gamma');
      await panel.clickIn(['dialog', 'Tag 2 bookmarks'], 'button', 'Add tag');
      await expect.poll(async () => (await get(second.id)).tags.sort(), POLL_SERVER).toEqual(['alpha', 'beta', 'gamma']);
      expect((await get(first.id)).tags.sort()).toEqual(['alpha', 'beta', 'gamma', 'keep']);

      await selectBoth();
      await panel.clickIn(['toolbar', 'Selected bookmarks'], 'button', 'Remove tag…');
      await panel.waitFor('dialog', 'Remove a tag from 2 bookmarks');
      await panel.select('Tag to remove', 'beta');
      await panel.clickIn(['dialog', 'Remove a tag from 2 bookmarks'], 'button', 'Remove tag');
      await expect.poll(async () => (await get(second.id)).tags.sort(), POLL_SERVER).toEqual(['alpha', 'gamma']);
      expect((await get(first.id)).tags.sort()).toEqual(['alpha', 'gamma', 'keep']);
      await panel.close();
    }, 60_000);
  });
}
