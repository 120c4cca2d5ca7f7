import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import type { Browser } from 'wxt/browser';
import { type ShelfProcess, dataOf, startShelf } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: typeof Browser;

const ROWS = 300;

/** What a file adds to the scenario for its own browser: more tests on the same server, user and data. */
export type MoreTests<U extends ExtensionUser> = (world: () => { shelf: ShelfProcess; user: U }) => void;

/**
 * Opens the side panel's page (sidepanel.html) and, where it reopens inside a list (it opens where the user
 * left it), goes back to the library's places.
 */
export async function openPanelOnLibrary(user: ExtensionUser): Promise<UserPage> {
  const panel = await user.open('sidepanel.html');
  await expect.poll(async () => (await panel.count('navigation', 'Library')) + (await panel.count('button', '← Library')), { timeout: 10_000 }).toBeGreaterThan(0);
  if ((await panel.count('navigation', 'Library')) === 0) await panel.click('button', '← Library');
  await panel.waitFor('navigation', 'Library');
  return panel;
}

/**
 * The side panel's lists, smart folders, search, bulk actions and kept first page. Chrome's side panel and
 * Firefox's sidebar (`sidebar_action`) show the same page, sidepanel.html; neither headless browser lets a test
 * drive the panel's own frame (Chromium's side panel has no target for Playwright, Firefox's sidebar is browser
 * chrome outside WebDriver BiDi's reach), so the page is opened as a tab of the extension, where it runs the same
 * code against the same background. One description, run in Chromium (test/browser/side-panel.test.ts) and
 * Firefox (test/firefox/side-panel.test.ts).
 */
export function sidePanelScenarios<U extends ExtensionUser>(launch: () => Promise<U>, more?: MoreTests<U>): void {
  describe('the side panel’s lists, smart folders, search, bulk actions and kept first page', () => {
    let shelf: ShelfProcess;
    let user: U;
    let reading: Collection;
    let archive: Collection;
    let opened: UserPage[] = [];

    const save = (body: Record<string, unknown>) =>
      shelf.api('POST', '/bookmarks', { title: 'Untitled', description: '', ...body }).then((res) => dataOf<Bookmark>(res));
    const open = async (): Promise<UserPage> => {
      const panel = await openPanelOnLibrary(user);
      opened.push(panel);
      return panel;
    };

    beforeAll(async () => {
      // Raised limits: the 500 saves below go in at once; the extension keeps to the real ones by itself.
      // The library is filled while the browser starts.
      const launched = launch();
      shelf = await startShelf(['--raise-limits']).catch(async (err: unknown) => {
        await (await launched.catch(() => null))?.close();
        throw err;
      });
      reading = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Reading' }));
      archive = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Archive' }));
      const kitchen = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Kitchen' }));
      // Saved oldest first: the panel lists newest first, so "Reading 1" is the collection's top row and "Reading 300" its last.
      for (let i = ROWS; i >= 1; i--) await save({ url: `https://example.com/reading/${i}`, title: `Reading ${i}`, collectionId: reading.id });
      await save({ url: 'https://example.com/guide', title: 'Fermenting guide', tags: ['food'], collectionId: kitchen.id });
      await save({ url: 'https://example.com/kimchi', title: 'Kimchi at home', tags: ['food/korean'], collectionId: kitchen.id });
      await save({ url: 'https://example.com/bikes', title: 'Bike repair', tags: ['repair'], collectionId: kitchen.id });
      await save({ url: 'https://other.org/bread', title: 'Sourdough', tags: ['food'], collectionId: kitchen.id });
      await save({ url: 'https://example.com/elsewhere', title: 'Not in Kitchen', tags: ['food'] });
      user = await launched;
      await (await signIn(user, shelf)).close();
    }, 120_000);

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop()]);
    });

    afterEach(() => {
      // A script error in any panel opened (a kept paint React could not take over, say) fails the test.
      expect(opened.flatMap((panel) => panel.errors())).toEqual([]);
      opened = [];
    });

    it('lists All bookmarks, a collection and a tag, each with its own bookmarks only', async () => {
      const panel = await open();
      await panel.clickIn(['navigation', 'Library'], 'button', 'All bookmarks');
      await panel.waitFor('region', 'All bookmarks');
      for (const title of ['Not in Kitchen', 'Sourdough', 'Bike repair']) await panel.waitFor('link', title);

      await panel.click('button', '← Library');
      await panel.clickIn(['navigation', 'Library'], 'button', 'Kitchen');
      await panel.waitFor('region', 'Kitchen');
      await panel.waitFor('link', 'Fermenting guide');
      expect(await panel.textsIn(['region', 'Kitchen'], 'link')).toEqual(['Sourdough', 'Bike repair', 'Kimchi at home', 'Fermenting guide']);

      await panel.click('button', '← Library');
      await panel.clickIn(['navigation', 'Library'], 'button', 'repair');
      await panel.waitFor('region', 'repair');
      await panel.waitFor('link', 'Bike repair');
      expect(await panel.textsIn(['region', 'repair'], 'link')).toEqual(['Bike repair']);
      await panel.close();
    }, 60_000);

    it('searches #tag site: inside a collection and shows only its matches, the filters as chips', async () => {
      const panel = await open();
      await panel.clickIn(['navigation', 'Library'], 'button', 'Kitchen');
      await panel.waitFor('link', 'Sourdough');

      await panel.waitFor('searchbox', 'Search in Kitchen');
      await panel.fill('Search in Kitchen', '#food site:example.com');
      const results = ['list', 'Search results for #food site:example.com'] as const;
      await expect.poll(async () => (await panel.textsIn(results, 'link').catch(() => [])).sort(), { timeout: 15_000 }).toEqual(['Fermenting guide', 'Kimchi at home']);
      const statuses = await panel.evaluate(() => [...document.querySelectorAll('[role="status"]')].map((node) => node.textContent ?? ''), undefined);
      expect(statuses.find((text) => text.includes('found'))).toBe('2 bookmarks found.');
      expect(await panel.textsIn(['list', 'Search filters'], 'listitem')).toEqual(['Tag: food (and tags under it)', 'Site: example.com']);
      await panel.close();
    }, 60_000);

    it('browses a collection of 300 by scrolling, then moves 120 chosen with click and Shift-click', async () => {
      const panel = await open();
      await panel.clickIn(['navigation', 'Library'], 'button', 'Reading');
      await panel.waitFor('link', 'Reading 1');
      /** Scrolls the list to the bottom (to), or until the row of that checkbox is in view; answers the rows in the page. */
      const scroll = (to: 'end' | { label: string }) =>
        panel.evaluate(async (target) => {
          const region = document.querySelector<HTMLElement>('[role="region"][aria-label="Reading"]')!;
          const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
          if (target === 'end') region.scrollTo(0, region.scrollHeight);
          else {
            region.scrollTo(0, 0);
            await frame();
            for (let top = 0; !document.querySelector(`[aria-label="${target.label}"]`) && top < region.scrollHeight; top += region.clientHeight / 2) {
              region.scrollTo(0, top);
              await frame();
            }
            document.querySelector(`[aria-label="${target.label}"]`)?.scrollIntoView({ block: 'center' });
            await frame();
          }
          return region.querySelectorAll('li').length;
        }, to);

      // Pages of 100 load as the end comes near, until the last row is there.
      await expect
        .poll(
          async () => {
            await scroll('end');
            return panel.count('link', `Reading ${ROWS}`);
          },
          { timeout: 20_000 },
        )
        .toBe(1);
      // Virtualised: a few dozen rows are in the page, not 300.
      expect(await panel.textsIn(['region', 'Reading'], 'listitem').then((rows) => rows.length)).toBeLessThan(60);

      await scroll({ label: 'Select Reading 1' });
      await panel.click('checkbox', 'Select Reading 1');
      await scroll({ label: 'Select Reading 120' });
      await panel.click('checkbox', 'Select Reading 120', { shift: true });
      await expect.poll(() => panel.textOf('toolbar', 'Selected bookmarks')).toContain('120 selected');

      await panel.click('button', 'Move to…');
      const dialog = ['dialog', 'Move 120 bookmarks'] as const;
      await panel.clickIn(dialog, 'button', 'Collection: Unsorted');
      await panel.clickIn(dialog, 'treeitem', 'Archive');
      await panel.clickIn(dialog, 'button', 'Move');
      await panel.waitForText('Moved 120 of 120.', { timeoutMs: 20_000 });

      const inArchive = async (): Promise<string[]> => {
        const titles: string[] = [];
        let cursor: string | null = null;
        do {
          const page: { bookmarks: Bookmark[]; continueCursor: string | null } = dataOf(
            await shelf.api('GET', `/collections/${archive.id}/bookmarks?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
          );
          titles.push(...page.bookmarks.map((b) => b.title));
          cursor = page.continueCursor;
        } while (cursor);
        return titles;
      };
      const moved = await inArchive();
      expect(moved).toHaveLength(120);
      expect(new Set(moved)).toEqual(new Set(Array.from({ length: 120 }, (_, i) => `Reading ${i + 1}`)));
      // They left the list shown, at once.
      expect(await panel.count('link', 'Reading 1')).toBe(0);
      await panel.close();
    }, 90_000);

    it('opens a smart folder whose evaluation starts with an empty page and shows every match', async () => {
      // 200 trashed members of the tag first: the first evaluation page holds none of the matches, only a cursor.
      // Older than the matches, in any order among themselves: saved ten at a time.
      const trashed: string[] = [];
      for (let i = 0; i < 200; i += 10) {
        const saved = await Promise.all(Array.from({ length: 10 }, (_, j) => save({ url: `https://example.com/gone/${i + j}`, tags: ['deep'] })));
        trashed.push(...saved.map((b) => b.id));
      }
      await Promise.all([0, 50, 100, 150].map((i) => shelf.api('POST', '/bookmarks/bulk/trash', { ids: trashed.slice(i, i + 50) })));
      for (let i = 1; i <= 3; i++) await save({ url: `https://example.com/deep/${i}`, title: `Deep ${i}`, tags: ['deep'] });
      await shelf.api('POST', '/smart-folders', { name: 'Deep reads', rules: { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'deep' }] } });

      const panel = await open();
      await panel.clickIn(['navigation', 'Library'], 'button', 'Deep reads');
      await panel.waitForText(/^3 matches, fetched/, { timeoutMs: 20_000 });
      for (let i = 1; i <= 3; i++) await panel.waitFor('link', `Deep ${i}`);
      await panel.waitForText(/Refresh possible in \d+ s/);
      await panel.close();
    }, 120_000);

    it('opens a list again on the paint it drew last, which React takes over with the same rows, until the list changes', async () => {
      const setup = await user.open('sidepanel.html');
      await setup.evaluate((place) => chrome.storage.local.set({ sidePanelPlace: place }), { kind: 'list', source: { kind: 'all' }, title: 'All bookmarks' });
      await setup.close();
      /** Opens the panel until React has it: whether the kept paint showed first, the rows it showed, and the rows React drew. */
      const openKept = async () => {
        const panel = await user.open('sidepanel.html');
        opened.push(panel);
        await panel.waitFor('region', 'All bookmarks');
        await expect.poll(() => panel.evaluate(() => performance.getEntriesByName('shelf:panel-taken-over').length, undefined), { timeout: 10_000 }).toBeGreaterThan(0);
        const marks = await panel.evaluate(() => {
          const paint = JSON.parse(localStorage.getItem('shelf.panelSnapshot') ?? 'null') as { html: string } | null;
          return {
            shown: performance.getEntriesByName('shelf:panel-snapshot-shown')[0]?.startTime ?? null,
            takenOver: performance.getEntriesByName('shelf:panel-taken-over')[0]!.startTime,
            kept: paint ? [...new DOMParser().parseFromString(paint.html, 'text/html').querySelectorAll('[role="region"] a')].map((a) => a.textContent) : [],
          };
        }, undefined);
        const drawn = await panel.textsIn(['region', 'All bookmarks'], 'link');
        // One take-over per opening, by React's one first commit (twice only in a development build, where StrictMode runs effects twice).
        expect(await panel.evaluate(() => performance.getEntriesByName('shelf:panel-taken-over').length, undefined)).toBe(1);
        return { panel, shownFirst: marks.shown !== null && marks.shown < marks.takenOver, kept: marks.kept, drawn };
      };

      // The first opening asks the server (no page kept of this list yet); the second draws the kept page and keeps that paint.
      const first = await openKept();
      expect(first.shownFirst).toBe(false);
      await first.panel.close();
      const second = await openKept();
      expect(second.shownFirst).toBe(false);
      // Its rows are those of React's first commit, drawn for an assumed height: the rows in view and perhaps one more.
      expect(second.kept.slice(0, second.drawn.length)).toEqual(second.drawn);
      expect(second.drawn[0]).toBe('Deep 3');
      await second.panel.close();
      // The third shows it at once; React draws the same rows over it, and the panel works as ever.
      const third = await openKept();
      expect(third.shownFirst).toBe(true);
      expect(third.drawn).toEqual(second.drawn);
      await third.panel.click('checkbox', 'Select Deep 3');
      await third.panel.waitForText('1 selected');
      await third.panel.close();

      // A save elsewhere: the next opening refreshes the kept page, and the one after draws the new page, not the old paint.
      await save({ url: 'https://example.com/fresh', title: 'Fresh' });
      const refreshing = await openKept();
      await refreshing.panel.waitFor('link', 'Fresh');
      await refreshing.panel.close();
      const afterChange = await openKept();
      expect(afterChange.shownFirst).toBe(false);
      expect(afterChange.drawn[0]).toBe('Fresh');
      await afterChange.panel.close();
      const again = await openKept();
      expect(again.shownFirst).toBe(true);
      expect(again.drawn[0]).toBe('Fresh');
      await again.panel.close();
    }, 90_000);

    more?.(() => ({ shelf, user }));
  });
}
