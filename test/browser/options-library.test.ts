import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { netscapeHtml } from '../support/import-files.ts';
import { BUILD_DIR, type ExtensionBrowser, type ShelfProcess, dataOf, launchExtension, signInThroughOptions, speedUpTime, startShelf } from './support.ts';

// A browser's Netscape file the project writes itself, so that this test runs in any clone.
const FIXTURE = netscapeHtml();

describe('the options page’s smart folders, trash, import and export, in Chromium', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;
  let page: Page;
  let trashed: Bookmark;
  let problems: string[] = [];

  const save = (body: Record<string, unknown>) => shelf.api('POST', '/bookmarks', { description: '', ...body }).then((res) => dataOf<Bookmark>(res));

  beforeAll(async () => {
    // Raised limits: three exports in a minute; the extension keeps to the real smart-folder budget by itself.
    [shelf, browser] = await Promise.all([startShelf(['--raise-limits', '--test-clock']), launchExtension()]);
    for (let i = 1; i <= 3; i++) await save({ url: `https://example.com/news/${i}`, title: `News ${i}`, tags: ['news/world'] });
    await save({ url: 'https://other.example/news', title: 'Elsewhere', tags: ['news/world'] });
    trashed = await save({ url: 'https://example.com/old', title: 'Old page' });
    await shelf.api('DELETE', `/bookmarks/${trashed.id}`);
    page = await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
    page.on('pageerror', (error) => problems.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop()]);
  });

  afterEach(() => {
    expect(problems).toEqual([]);
    problems = [];
  });

  const openSection = (name: string) => page.getByRole('navigation', { name: 'Options sections' }).getByRole('link', { name }).click();

  it('starts the Duplicates view’s search from a parser-blocking script ahead of the page’s module', () => {
    // As an async script it ran only once the whole page was parsed.
    const html = readFileSync(join(BUILD_DIR, 'options.html'), 'utf8');
    const early = html.indexOf('<script src="/options-early.js"></script>');
    expect(early).toBeGreaterThan(-1);
    expect(early).toBeLessThan(html.indexOf('<script type="module"'));
  });

  it('builds a smart folder of three conditions and previews its first matches', async () => {
    await openSection('Smart folders');
    await page.getByRole('button', { name: 'New smart folder' }).click();
    const form = page.getByRole('form', { name: 'New smart folder' });
    await form.getByRole('textbox', { name: 'Name' }).fill('World news here');
    await form.getByRole('combobox', { name: 'Condition 1 operator' }).selectOption('contains');
    await form.getByRole('textbox', { name: 'Condition 1 value' }).fill('news');
    await form.getByRole('button', { name: 'Add condition' }).click();
    await form.getByRole('combobox', { name: 'Condition 2 field' }).selectOption('domain');
    await form.getByRole('textbox', { name: 'Condition 2 value' }).fill('example.com');
    await form.getByRole('button', { name: 'Add condition' }).click();
    await form.getByRole('combobox', { name: 'Condition 3 field' }).selectOption('clickCount');
    await form.getByRole('combobox', { name: 'Condition 3 operator' }).selectOption('lte');
    await form.getByRole('spinbutton', { name: 'Condition 3 value' }).fill('5');
    await form.getByRole('button', { name: 'Create smart folder' }).click();

    const folders = page.getByRole('list', { name: 'Smart folders' });
    await folders.getByText('3 conditions, all must hold').waitFor();
    await folders.getByRole('button', { name: 'Preview World news here' }).click();
    const matches = page.getByRole('list', { name: 'First matches of World news here' });
    await matches.getByRole('link', { name: 'News 1' }).waitFor({ timeout: 10_000 });
    expect((await matches.getByRole('link').allTextContents()).sort()).toEqual(['News 1', 'News 2', 'News 3']);
  });

  it('restores a bookmark from the trash', async () => {
    await openSection('Trash');
    await page.getByRole('button', { name: 'Restore Old page' }).click();
    await page.getByText('Restored “Old page”.').waitFor();
    expect(dataOf<Bookmark>(await shelf.api('GET', `/bookmarks/${trashed.id}`)).deletedAt).toBeNull();
  });

  it('exports the library in each format to a downloaded file, and imports a file whose folders become collections', { timeout: 180_000 }, async () => {
    await openSection('Import and export');
    const exported: Record<string, string> = {};
    // Exports are a heavy endpoint (two a minute): the third is refused unsent, in words, until the minute is over.
    const exportAs = async (format: 'json' | 'csv' | 'html', label: RegExp, within: number) => {
      await page.getByRole('radio', { name: label }).check();
      const download = page.waitForEvent('download', { timeout: within });
      await page.getByRole('button', { name: 'Export library' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(new RegExp(`^shelf-export-\\d{4}-\\d{2}-\\d{2}\\.${format}$`));
      exported[format] = readFileSync(await file.path(), 'utf8');
    };
    const minuteStart = Date.now();
    await exportAs('json', /^JSON/, 20_000);
    await exportAs('csv', /^CSV/, 20_000);
    await page.getByRole('radio', { name: /^HTML/ }).check();
    await page.getByRole('button', { name: 'Export library' }).click();
    await page.getByText(/Too many requests for now/).waitFor({ timeout: 30_000 });
    // As a user would: once the minute is over, the same button again. The minute passes ten times faster in the
    // worker and the server alike, so that the test does not wait a real one.
    const fast = await speedUpTime(browser, shelf, 10);
    const workerNow = () => browser.inWorker(() => Date.now());
    await expect.poll(workerNow, { timeout: 30_000, interval: 500 }).toBeGreaterThan(minuteStart + 62_000);
    await fast.stop();
    await exportAs('html', /^HTML/, 30_000);
    expect(JSON.parse(exported.json!)).toBeTruthy();
    for (const text of Object.values(exported)) {
      expect(text).toContain('https://example.com/news/1');
      expect(text).toContain('https://example.com/old');
    }
    expect(exported.html).toContain('<!DOCTYPE NETSCAPE-Bookmark-file-1>');

    await page.getByLabel('File to import').setInputFiles({ name: FIXTURE.name, mimeType: 'text/html', buffer: Buffer.from(FIXTURE.content) });
    await page.getByRole('button', { name: 'Import file', exact: true }).click();
    await page.getByText(new RegExp(`^Imported ${FIXTURE.bookmarks.length} bookmarks`)).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('progressbar', { name: 'Import progress' }).getAttribute('aria-valuenow')).toBe('100');
    const names = dataOf<Collection[]>(await shelf.api('GET', '/collections')).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(FIXTURE.collections.map((path) => path.at(-1))));
  });

  it('places the duplicate groups that show first, then those of the region’s own height, and brings later groups as the region scrolls', async () => {
    const page2 = (i: number) => `p${String(i).padStart(2, '0')}`;
    for (let i = 0; i < 20; i++) {
      await save({ url: `https://dup.example/${page2(i)}`, title: `Duplicate ${i}` });
      await save({ url: `http://www.dup.example/${page2(i)}/`, title: `Duplicate ${i} again` });
    }
    // The groups of the first commit with any (what the user waits for), counted as they come into the page.
    await page.evaluate(() => {
      const seen = new MutationObserver(() => {
        const placed = document.querySelectorAll('[role="region"][aria-label="Duplicate groups"] fieldset').length;
        if (placed === 0) return;
        (window as { firstPlaced?: number }).firstPlaced = placed;
        seen.disconnect();
      });
      seen.observe(document.body, { subtree: true, childList: true });
    });
    await openSection('Duplicates');
    const region = page.getByRole('region', { name: 'Duplicate groups' });
    // Newest first: the last saved pair's group leads.
    const merge = (i: number) => region.getByRole('button', { name: `Merge the duplicates of dup.example/${page2(i)}` });
    await merge(19).waitFor({ timeout: 20_000 });
    // Only those the first guess of the region's height (640 px) shows: the three groups of overscan wait for its measure.
    expect(await page.evaluate(() => (window as { firstPlaced?: number }).firstPlaced)).toBe(3);
    // The groups its height shows (each 300 px) and three more: measured by its ResizeObserver, not the first guess.
    const placed = () => region.evaluate((el) => ({ fits: Math.floor((el.clientHeight - 1) / 300) + 1 + 3, shown: el.querySelectorAll('fieldset').length }));
    await expect.poll(async () => { const { fits, shown } = await placed(); return shown === Math.min(fits, 20); }, { timeout: 10_000 }).toBe(true);
    expect(await region.evaluate((el) => el.scrollTop)).toBe(0);
    await region.evaluate((el) => el.scrollTo({ top: 300 * 15 }));
    await merge(4).waitFor({ timeout: 10_000 });
    expect(await merge(19).count()).toBe(0);
  });
});
