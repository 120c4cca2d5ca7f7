import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { type ShelfProcess, dataOf, startShelf } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';

/**
 * The side panel (Chrome's side panel, Firefox's sidebar: the same sidepanel.html), opened as its page in a tab:
 * neither headless browser lets a test drive the panel's own frame. Its lists, a smart folder, and the first page
 * kept for the next opening. One description, run in Chromium
 * (test/browser/side-panel.test.ts) and Firefox (test/firefox/side-panel.test.ts).
 */
export function sidePanelScenarios(launch: () => Promise<ExtensionUser>): void {
  describe('the side panel’s lists and kept first page', () => {
    let shelf: ShelfProcess;
    let user: ExtensionUser;
    let panel: UserPage;

    const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: '', ...body }).then((res) => dataOf<Bookmark>(res));

    beforeAll(async () => {
      [shelf, user] = await Promise.all([startShelf(), launch()]);
      const reading = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Reading' }));
      await save({ url: 'https://example.com/one', title: 'Reading one', collectionId: reading.id });
      await save({ url: 'https://example.com/two', title: 'Reading two', collectionId: reading.id });
      await save({ url: 'https://example.com/birds', title: 'Field notes', tags: ['birds'] });
      await save({ url: 'https://example.com/loose', title: 'Loose page' });
      await shelf.api('POST', '/smart-folders', { name: 'Bird notes', rules: { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'birds' }] } });
      await (await signIn(user, shelf)).close();
    });

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop()]);
    });

    const back = () => panel.click('button', '← Library');

    it('lists All bookmarks, a collection, a tag and a smart folder', { timeout: 90_000 }, async () => {
      panel = await user.open('sidepanel.html');
      await panel.click('button', 'All bookmarks');
      await panel.waitFor('region', 'All bookmarks');
      for (const title of ['Reading one', 'Reading two', 'Field notes', 'Loose page']) await panel.waitFor('link', title);

      await back();
      await panel.clickStartingWith('button', 'Reading');
      await panel.waitFor('region', 'Reading');
      await panel.waitFor('link', 'Reading two');
      expect(await panel.count('link', 'Loose page')).toBe(0);

      await back();
      await panel.clickStartingWith('button', 'birds');
      await panel.waitFor('region', 'birds');
      await panel.waitFor('link', 'Field notes');
      expect(await panel.count('link', 'Reading one')).toBe(0);

      await back();
      await panel.click('button', 'Bird notes');
      await panel.waitFor('link', 'Field notes');
      await expect.poll(() => panel.evaluate(() => document.body.textContent ?? '', undefined), { timeout: 10_000 }).toMatch(/1 match\b/);

      await panel.close();
    });

    it('opens again on the kept first page, shown before the background answers, with the same rows React then draws', async () => {
      /** Opens the panel until React has it: whether the kept paint showed first, and the first row React drew. */
      const open = async () => {
        panel = await user.open('sidepanel.html');
        await panel.waitFor('region', 'All bookmarks');
        await expect.poll(() => panel.evaluate(() => performance.getEntriesByName('shelf:panel-taken-over').length, undefined), { timeout: 10_000 }).toBe(1);
        const marks = await panel.evaluate(
          () => ({
            shown: performance.getEntriesByName('shelf:panel-snapshot-shown')[0]?.startTime ?? null,
            takenOver: performance.getEntriesByName('shelf:panel-taken-over')[0]!.startTime,
            firstRow: document.querySelector('[role="region"] a')?.textContent ?? null,
          }),
          undefined,
        );
        await panel.close();
        return { shownFirst: marks.shown !== null && marks.shown < marks.takenOver, firstRow: marks.firstRow };
      };
      // The openings before keep the page and then its paint; the one after shows that paint before React.
      await open();
      await open();
      const kept = await open();
      expect(kept.shownFirst).toBe(true);
      expect(kept.firstRow).toBe('Loose page');
    });
  });
}
