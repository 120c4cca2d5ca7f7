import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import type { Browser } from 'wxt/browser';
import { type ExtensionBrowser, type ShelfProcess, dataOf, launchExtension, signInThroughOptions, startShelf } from './support.ts';

declare const chrome: typeof Browser;

const ROWS = 300;

describe('the side panel, in Chromium', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;
  let reading: Collection;
  let archive: Collection;
  let panel: Page;
  let problems: string[] = [];

  const save = (body: Record<string, unknown>) =>
    shelf.api('POST', '/bookmarks', { title: `Untitled`, description: '', ...body }).then((res) => dataOf<Bookmark>(res));

  beforeAll(async () => {
    // Raised limits: the fixture's 500 saves go in at once; the extension keeps to the real ones by itself.
    [shelf, browser] = await Promise.all([startShelf(['--raise-limits']), launchExtension()]);
    reading = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Reading' }));
    archive = dataOf<Collection>(await shelf.api('POST', '/collections', { name: 'Archive' }));
    // Saved oldest first: the panel lists newest first, so "Reading 1" is the top row and "Reading 300" the last.
    for (let i = ROWS; i >= 1; i--) await save({ url: `https://example.com/reading/${i}`, title: `Reading ${i}`, collectionId: reading.id });
    await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop()]);
  });

  afterEach(() => {
    expect(problems).toEqual([]);
    problems = [];
  });

  const openPanel = async (): Promise<Page> => {
    panel = await browser.context.newPage();
    panel.on('pageerror', (error) => problems.push(error.message));
    await panel.goto(browser.url('sidepanel.html'));
    return panel;
  };

  it('browses a collection of 300 by scrolling, then moves 120 chosen with click and Shift-click', async () => {
    await openPanel();
    await panel.getByRole('navigation', { name: 'Library' }).getByRole('button', { name: /^Reading/ }).click();
    const region = panel.getByRole('region', { name: 'Reading' });
    await panel.getByRole('link', { name: 'Reading 1', exact: true }).waitFor();

    // Pages of 100 load as the end comes near, until the last row is there.
    await expect
      .poll(
        async () => {
          await region.evaluate((el) => el.scrollTo(0, el.scrollHeight));
          return panel.getByRole('link', { name: `Reading ${ROWS}`, exact: true }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    // Virtualised: a few dozen rows are in the page, not 300.
    expect(await region.getByRole('listitem').count()).toBeLessThan(60);

    await region.evaluate((el) => el.scrollTo(0, 0));
    await panel.getByRole('checkbox', { name: 'Select Reading 1', exact: true }).click();
    await region.evaluate((el) => el.scrollTo(0, 76 * 110));
    await panel.getByRole('checkbox', { name: 'Select Reading 120', exact: true }).click({ modifiers: ['Shift'] });
    await expect.poll(() => panel.getByRole('toolbar', { name: 'Selected bookmarks' }).textContent()).toContain('120 selected');

    await panel.getByRole('button', { name: 'Move to…' }).click();
    const dialog = panel.getByRole('dialog', { name: 'Move 120 bookmarks' });
    await dialog.getByRole('button', { name: /Unsorted/ }).click();
    await dialog.getByRole('treeitem', { name: /Archive/ }).click();
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await panel.getByText('Moved 120 of 120.').waitFor({ timeout: 20_000 });

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
    expect(await panel.getByRole('link', { name: 'Reading 1', exact: true }).count()).toBe(0);
  });

  it('opens a smart folder whose evaluation starts with an empty page and shows every match', async () => {
    // 200 trashed members of the tag first: the first evaluation page holds none of the matches, only a cursor.
    const trashed: string[] = [];
    for (let i = 0; i < 200; i++) trashed.push((await save({ url: `https://example.com/gone/${i}`, tags: ['deep'] })).id);
    for (let i = 0; i < trashed.length; i += 50) await shelf.api('POST', '/bookmarks/bulk/trash', { ids: trashed.slice(i, i + 50) });
    for (let i = 1; i <= 3; i++) await save({ url: `https://example.com/deep/${i}`, title: `Deep ${i}`, tags: ['deep'] });
    await shelf.api('POST', '/smart-folders', { name: 'Deep reads', rules: { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'deep' }] } });

    await openPanel();
    // The panel reopens where it was left (the Reading collection): back to the library's places.
    await panel.getByRole('button', { name: '← Library' }).click();
    await panel.getByRole('navigation', { name: 'Library' }).getByRole('button', { name: 'Deep reads' }).click();
    await panel.getByText(/^3 matches, fetched/).waitFor({ timeout: 20_000 });
    for (let i = 1; i <= 3; i++) await panel.getByRole('link', { name: `Deep ${i}`, exact: true }).waitFor();
    await panel.getByText(/Refresh possible in \d+ s/).waitFor();
  }, 120_000);

  it('opens a list again on the paint it drew last, which React takes over with the same rows, until the list changes', async () => {
    await (await browser.worker()).evaluate((place) => chrome.storage.local.set({ sidePanelPlace: place }), { kind: 'list', source: { kind: 'all' }, title: 'All bookmarks' });
    /** Opens the panel until React has it: whether the kept paint showed first, the rows it showed, and the rows React drew. */
    const open = async () => {
      await openPanel();
      await panel.waitForFunction(() => performance.getEntriesByName('shelf:panel-taken-over').length > 0);
      const [shown] = await panel.evaluate(() => performance.getEntriesByName('shelf:panel-snapshot-shown').map((m) => m.startTime));
      const [takenOver] = await panel.evaluate(() => performance.getEntriesByName('shelf:panel-taken-over').map((m) => m.startTime));
      const drawn = await panel.getByRole('region', { name: 'All bookmarks' }).getByRole('link').allTextContents();
      const kept = await panel.evaluate(() => {
        const paint = JSON.parse(localStorage.getItem('shelf.panelSnapshot') ?? 'null') as { html: string } | null;
        return paint ? [...new DOMParser().parseFromString(paint.html, 'text/html').querySelectorAll('[role="region"] a')].map((a) => a.textContent) : [];
      });
      return { shownFirst: shown !== undefined && shown < takenOver!, kept, drawn };
    };

    // The first opening asks the server (no page kept of this list yet); the second draws the kept page and keeps that paint.
    expect((await open()).shownFirst).toBe(false);
    await panel.close();
    const second = await open();
    expect(second.shownFirst).toBe(false);
    // Its rows are those of React's first commit, drawn for an assumed height: the rows in view and perhaps one more.
    expect(second.kept.slice(0, second.drawn.length)).toEqual(second.drawn);
    expect(second.drawn[0]).toBe('Deep 3');
    await panel.close();
    // The third shows it at once; React draws the same rows over it, and the panel works as ever.
    const third = await open();
    expect(third.shownFirst).toBe(true);
    expect(third.drawn).toEqual(second.drawn);
    await panel.getByRole('checkbox', { name: 'Select Deep 3', exact: true }).click();
    await panel.getByText('1 selected').waitFor();
    await panel.close();

    // A save elsewhere: the next opening refreshes the kept page, and the one after draws the new page, not the old paint.
    await save({ url: 'https://example.com/fresh', title: 'Fresh' });
    await open();
    await panel.getByRole('link', { name: 'Fresh', exact: true }).waitFor({ timeout: 10_000 });
    await panel.close();
    const afterChange = await open();
    expect(afterChange.shownFirst).toBe(false);
    expect(afterChange.drawn[0]).toBe('Fresh');
    await panel.close();
    const again = await open();
    expect(again.shownFirst).toBe(true);
    expect(again.drawn[0]).toBe('Fresh');
    await panel.close();

    // A click on the kept paint before React has the panel is carried out once React has it. The click is made
    // in the page the moment the paint is in (a click sent from here could come after React, in a few ms), and
    // each click says whether React had the panel by then.
    panel = await browser.context.newPage();
    panel.on('pageerror', (error) => problems.push(error.message));
    await panel.addInitScript(`
      window.__clicks = [];
      document.addEventListener('click', () => window.__clicks.push(performance.getEntriesByName('shelf:panel-taken-over').length > 0), true);
      new MutationObserver((_, observer) => {
        if (performance.getEntriesByName('shelf:panel-snapshot-shown').length === 0) return;
        observer.disconnect();
        document.querySelector('[aria-label="Select Fresh"]').click();
      }).observe(document, { subtree: true, childList: true });
    `);
    await panel.goto(browser.url('sidepanel.html'));
    await panel.getByText('1 selected').waitFor({ timeout: 10_000 });
    expect(await panel.getByRole('checkbox', { name: 'Select Fresh', exact: true }).isChecked()).toBe(true);
    // Before React (false), then replayed on React's checkbox (true).
    expect(await panel.evaluate(() => (window as unknown as { __clicks: boolean[] }).__clicks)).toEqual([false, true]);
  }, 60_000);
});
