import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type ShelfProcess, type Site, dataOf, startShelf, startSite } from '../browser/support.ts';
import { signIn } from './sign-in.ts';
import type { ExtensionUser, UserPage } from './user.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: {
  permissions: {
    contains(p: { permissions: string[] }): Promise<boolean>;
  };
  storage: { local: { get(key: null): Promise<Record<string, unknown>> } };
};

export interface PermissionsOptions {
  /** Whether the browser answers a permission request made during a click (Firefox's test pref); Chromium's prompt is shown to no one. */
  answersPrompts: boolean;
  /** Adds a bookmark to the browser's own bookmarks, as its bookmark manager does. */
  addBrowserBookmark?: (url: string, title: string) => Promise<void>;
}

/**
 * The optional `bookmarks` permission Shelf asks for besides the server's site (Import this browser's
 * bookmarks): refused when there is no click to ask during; asked from a click, granted, and given back after use.
 */
export function permissionScenarios(launch: () => Promise<ExtensionUser>, options: PermissionsOptions): void {
  describe('the bookmarks permission: refused with no click to ask during, asked from the next click, given back after the import', () => {
    let shelf: ShelfProcess;
    let user: ExtensionUser;
    let site: Site;
    let page: UserPage;

    const holds = (wanted: { permissions: string[] }) => page.evaluate((p) => chrome.permissions.contains(p), wanted);
    const bookmarks = async () => dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data;
    const shown = () => page.evaluate(() => document.body.innerText, undefined);
    /**
     * The stored items once the sign-in's index sync has ended: it writes as it goes, whatever the test does. Ended,
     * not only not running: under load the sync had not started yet when the storage was first read.
     */
    const settledStorage = async (): Promise<Record<string, unknown>> => {
      for (const end = Date.now() + 20_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
        const stored = await page.evaluate(() => chrome.storage.local.get(null), undefined);
        const synced = 'savedIndex' in stored && (stored.indexSync as { running?: boolean } | undefined)?.running !== true;
        if (synced || Date.now() > end) return stored;
      }
    };

    beforeAll(async () => {
      // Raised limits: this test reads the library while the extension's own requests go on.
      [shelf, user, site] = await Promise.all([startShelf(['--raise-limits']), launch(), startSite({})]);
      page = await signIn(user, shelf);
    }, 120_000);

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop(), site?.close()]);
    });

    it('a request with no click to ask during is refused in words about the bookmarks: nothing is imported or kept', async () => {
      await page.click('link', 'Import and export');
      const before = { stored: await settledStorage(), bookmarks: await bookmarks() };
      // Clicked by script, not by the user: the browser refuses to ask for a permission then.
      await page.evaluate(() => [...document.querySelectorAll('button')].find((b) => b.textContent === 'Import this browser’s bookmarks')!.click(), undefined);

      const alert = await page.textOf('alert');
      expect(alert).toContain('Shelf was not allowed to read this browser’s bookmarks, so nothing was imported.');
      expect(alert).toContain('Click Import this browser’s bookmarks again and allow access when your browser asks.');
      expect(await holds({ permissions: ['bookmarks'] })).toBe(false);
      expect(await bookmarks()).toEqual(before.bookmarks);
      expect(await page.evaluate(() => chrome.storage.local.get(null), undefined)).toEqual(before.stored);
    });

    // What follows needs the browser to answer yes to a request made during a click.
    if (!options.answersPrompts) return;

    it('the next click asks again, imports the browser’s bookmarks, and gives the permission back', { timeout: 60_000 }, async () => {
      await options.addBrowserBookmark?.(site.url('/from-the-browser'), 'From the browser');
      await page.click('button', 'Import this browser’s bookmarks');
      await expect.poll(shown, { timeout: 30_000, interval: 300 }).toMatch(/Imported \d+ bookmarks?;/);
      expect(await page.count('alert')).toBe(0);
      if (options.addBrowserBookmark) expect((await bookmarks()).map((b) => b.url)).toContain(site.url('/from-the-browser'));
      // Shelf has no use for the user's bookmarks once the file is made.
      await expect.poll(() => holds({ permissions: ['bookmarks'] }), { timeout: 10_000 }).toBe(false);
    });
  });
}
