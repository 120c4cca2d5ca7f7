import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { type ShelfProcess, type Site, dataOf, startShelf, startSite } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: {
  windows: { getAll(options: { populate: true }): Promise<Array<{ id?: number; tabs?: Array<{ url?: string; pendingUrl?: string }> }>>; remove(id: number): Promise<void> };
};

export interface LibraryPageOptions {
  /** axe-core's violations on a new library page in each view, in that colour scheme, by view; absent where a test cannot scan. */
  accessibilityViolations?: (colorScheme: 'light' | 'dark') => Promise<Record<string, string[]>>;
}

/**
 * The library page as a user goes through it (issue 20), against the real server: one description of the user's
 * steps, run in Chromium (test/browser/library-page.test.ts) and Firefox (test/firefox/library.test.ts).
 */
export function libraryPageScenarios(launch: () => Promise<ExtensionUser>, options: LibraryPageOptions = {}): void {
  describe('the library page', () => {
    let shelf: ShelfProcess;
    let user: ExtensionUser;
    let site: Site;
    let library: UserPage;
    let reading: Collection;
    let later: Collection;

    const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: 'd', ...body }).then((res) => dataOf<Bookmark>(res));
    const get = (id: string) => shelf.api('GET', `/bookmarks/${id}`).then((res) => dataOf<Bookmark>(res));
    const collection = (name: string) => shelf.api('POST', '/collections', { name }).then((res) => dataOf<Collection>(res));
    const NAV = ['navigation', 'Library'] as const;
    const linksIn = (list: string) => library.textsIn(['list', list], 'link');
    const showsLink = (list: string, title: string) => expect.poll(() => linksIn(list), { timeout: 10_000, interval: 100 }).toContain(title);
    const shows = (text: string) => expect.poll(() => library.evaluate(() => document.body.innerText, undefined), { timeout: 10_000, interval: 100 }).toContain(text);
    const pressed = (view: string) => library.attributeOf('button', view, 'aria-pressed');

    beforeAll(async () => {
      [shelf, user, site] = await Promise.all([
        startShelf(['--raise-limits', '--allow-private-fetch']),
        launch(),
        startSite({ '/one': 'Page one', '/two': 'Page two' }),
      ]);
      reading = await collection('Reading');
      later = await collection('Later');
      await save({ url: 'https://example.com/dev-here', title: 'Dev here', tags: ['dev'], collectionId: reading.id });
      await save({ url: 'https://other.org/dev-there', title: 'Dev elsewhere', tags: ['dev'], collectionId: reading.id });
      await save({ url: 'https://example.com/dev-outside', title: 'Dev outside', tags: ['dev'] });
      const settings = await signIn(user, shelf);
      // The way in: the options page's link, opening a new tab.
      const opened = user.opened('library.html');
      await settings.click('link', 'Open library');
      library = await opened;
      await settings.close();
    }, 120_000);

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop(), site?.close()]);
    });

    it('switches views list → cards → grid, and opens in the chosen one after a reload', async () => {
      await library.clickIn(NAV, 'button', 'All bookmarks');
      await showsLink('All bookmarks', 'Dev here');
      for (const view of ['List', 'Cards', 'Grid']) {
        await library.clickIn(['group', 'View'], 'button', view);
        await expect.poll(() => pressed(view)).toBe('true');
      }
      await library.reload();
      await showsLink('All bookmarks', 'Dev here');
      expect(await pressed('Grid')).toBe('true');
      // A tile's title is hidden (not merely transparent, which is still painted) until the tile is hovered or
      // focused; its link keeps the title as its name.
      const titleVisibility = (focus: boolean) =>
        library.evaluate((focusFirst) => {
          const link = [...document.querySelectorAll<HTMLElement>('[role="region"] li a')].find((a) => a.getAttribute('aria-label') === 'Dev here')!;
          if (focusFirst) link.focus();
          return getComputedStyle(link.firstElementChild!).visibility;
        }, focus);
      expect(await titleVisibility(false)).toBe('hidden');
      expect(await titleVisibility(true)).toBe('visible');
      await library.clickIn(['group', 'View'], 'button', 'List');
      expect(library.errors()).toEqual([]);
    });

    it('drags two selected bookmarks onto a collection: both moved on the server', async () => {
      const first = await save({ url: site.url('/one'), title: 'Page one' });
      const second = await save({ url: site.url('/two'), title: 'Page two' });
      await library.reload();
      await showsLink('All bookmarks', 'Page two');
      await library.click('checkbox', 'Select Page one');
      await library.click('checkbox', 'Select Page two');
      expect(await library.isChecked('checkbox', 'Select Page one')).toBe(true);
      if (library.dragTo) await library.dragTo(['link', 'Page two'], ['button', 'Later']);
      else {
        // Where no test can drop (Firefox: see UserPage.dragTo), the keyboard's way to the same move: m on a
        // selected bookmark moves the whole selection.
        await library.press('m');
        const dialog = ['dialog', 'Move 2 bookmarks'] as const;
        await library.clickIn(dialog, 'button', 'Collection: Unsorted');
        await library.click('treeitem', 'Later');
        await library.clickIn(dialog, 'button', 'Move');
      }
      await shows('Moved 2 of 2.');
      expect((await get(first.id)).collectionId).toBe(later.id);
      expect((await get(second.id)).collectionId).toBe(later.id);
      expect(library.errors()).toEqual([]);
    });

    it('searches #tag site: inside a collection: results from there only', async () => {
      await library.clickIn(NAV, 'button', 'Reading');
      await library.waitFor('list', 'Reading');
      await library.fill('Search in Reading', '#dev site:example.com');
      const results = 'Search results for #dev site:example.com';
      await showsLink(results, 'Dev here');
      expect(await linksIn(results)).toEqual(['Dev here']);
      await library.fill('Search in Reading', '');
      expect(library.errors()).toEqual([]);
    });

    it('opens a collection’s bookmarks with Open all: a new window with its tabs', async () => {
      const windows = () => library.evaluate(() => chrome.windows.getAll({ populate: true }), undefined);
      const before = (await windows()).map((w) => w.id);
      await library.clickIn(NAV, 'button', 'Later');
      await showsLink('Later', 'Page one');
      await library.click('button', 'Open all');
      await shows('Opened 2 bookmarks in a new window.');
      const opened = async () =>
        (await windows()).filter((w) => !before.includes(w.id)).map((w) => (w.tabs ?? []).map((t) => t.pendingUrl || t.url).sort());
      // A tab shows about:blank until its page starts to load (Firefox), or its pending address (Chromium).
      await expect.poll(opened, { timeout: 10_000, interval: 200 }).toEqual([[site.url('/one'), site.url('/two')].sort()]);
      const [newWindow] = (await windows()).filter((w) => !before.includes(w.id));
      await library.evaluate((id) => chrome.windows.remove(id), newWindow!.id!);
      expect(library.errors()).toEqual([]);
    });

    const scan = options.accessibilityViolations;
    if (scan) {
      for (const colorScheme of ['light', 'dark'] as const) {
        it(`has no axe-core violations in list, cards and grid, ${colorScheme}`, async () => {
          expect(await scan(colorScheme)).toEqual({ List: [], Cards: [], Grid: [] });
        });
      }
    }
  });
}
