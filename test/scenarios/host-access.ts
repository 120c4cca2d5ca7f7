import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ShelfProcess, startShelf } from '../browser/support.ts';
import { forwardFrom127002 } from './other-origin.ts';
import type { ExtensionUser, UserPage } from './user.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: {
  permissions: {
    contains(p: { origins: string[] }): Promise<boolean>;
    remove(p: { origins: string[] }): Promise<boolean>;
  };
  storage: { local: { get(key: null): Promise<Record<string, unknown>> } };
};

const originPattern = (baseUrl: string) => `${new URL(baseUrl).origin}/*`;

/**
 * Signing in, with the browser's host access granted, refused and revoked: one description of the user's
 * steps, run in Chromium (test/browser/host-access.test.ts) and Firefox (test/firefox/host-access.test.ts).
 */
export function hostAccessScenarios(launch: () => Promise<ExtensionUser>, options: { answersPrompts: boolean }): void {
  describe('signing in, with the browser’s access to the server granted, refused or revoked', () => {
    let shelf: ShelfProcess;
    let user: ExtensionUser;
    let elsewhere: Awaited<ReturnType<typeof forwardFrom127002>>;
    let page: UserPage;

    beforeAll(async () => {
      [shelf, user] = await Promise.all([startShelf(), launch()]);
      elsewhere = await forwardFrom127002(shelf.baseUrl);
    });

    afterAll(async () => {
      await Promise.all([user?.close(), shelf?.stop(), elsewhere?.close()]);
    });

    beforeEach(async () => {
      await page?.close();
      page = await user.open('options.html');
      // Neither button shows while the page still reads the account: wait for one of them before choosing.
      await expect.poll(async () => (await page.count('button', 'Sign out')) + (await page.count('button', 'Sign in')), { timeout: 10_000 }).toBeGreaterThan(0);
      if ((await page.count('button', 'Sign out')) > 0) await page.click('button', 'Sign out');
      await page.waitFor('button', 'Sign in');
    });

    const fillSignIn = async (serverUrl: string) => {
      await page.fill('Server URL', serverUrl);
      await page.fill('API token', shelf.token);
    };
    const signedIn = async () => {
      await page.waitFor('region', 'Signed in');
      return page.textOf('region', 'Signed in');
    };

    it('signs in to the local server on the first try, keeps the account across reloads, and signs out', async () => {
      await fillSignIn(shelf.baseUrl);
      await page.click('button', 'Sign in');

      const account = await signedIn();
      expect(account).toContain('Local user');
      expect(account).toContain('local@localhost');
      expect(account).toMatch(/Plan\s*pro/i);
      expect(account).toContain(shelf.baseUrl);

      await page.reload();
      expect(await signedIn()).toContain('Local user');

      await page.click('button', 'Sign out');
      await page.waitFor('button', 'Sign in');
      expect(await page.count('region', 'Signed in')).toBe(0);
      await page.reload();
      await page.waitFor('button', 'Sign in');
      expect(await page.count('button', 'Sign out')).toBe(0);
    });

    // Headless Chromium shows its permission prompt to no one (nothing answers it), and keeps the manifest's
    // host_permissions from removal, so these run where a test can answer for the user: Firefox, whose
    // extensions.webextOptionalPermissionPrompts pref says yes.
    if (!options.answersPrompts) return;

    it('asks for a server on another origin during the Sign in click, and works once granted', async () => {
      expect(await page.evaluate((pattern) => chrome.permissions.contains({ origins: [pattern] }), originPattern(elsewhere.baseUrl))).toBe(false);
      await fillSignIn(elsewhere.baseUrl);
      await page.click('button', 'Sign in');

      expect(await signedIn()).toContain(elsewhere.baseUrl);
      expect(await page.evaluate((pattern) => chrome.permissions.contains({ origins: [pattern] }), originPattern(elsewhere.baseUrl))).toBe(true);
    });

    it('asks again from the Sign in click for the local server when its access was revoked (about:addons → Permissions)', async () => {
      expect(await page.evaluate(() => chrome.permissions.remove({ origins: ['http://127.0.0.1/*', 'http://localhost/*'] }), undefined)).toBe(true);
      await fillSignIn(shelf.baseUrl);
      await page.click('button', 'Sign in');

      expect(await signedIn()).toContain(shelf.baseUrl);
      expect(await page.evaluate(() => chrome.permissions.contains({ origins: ['http://127.0.0.1/*'] }), undefined)).toBe(true);
    });

    it('when the browser does not allow access (no click to ask during), says so, keeps nothing, and the next click asks again', async () => {
      await page.evaluate((pattern) => chrome.permissions.remove({ origins: [pattern] }), originPattern(elsewhere.baseUrl));
      const before = await page.evaluate(() => chrome.storage.local.get(null), undefined);
      await fillSignIn(elsewhere.baseUrl);
      // Submitted by script, not by the user: the browser refuses to ask for a permission then.
      await page.evaluate(() => document.querySelector('form')!.requestSubmit(), undefined);

      const alert = await page.textOf('alert');
      expect(alert).toContain('Shelf is not allowed to reach that server.');
      expect(alert).toContain('Sign in again and allow access when your browser asks.');
      expect(await page.count('region', 'Signed in')).toBe(0);
      expect(await page.evaluate(() => chrome.storage.local.get(null), undefined)).toEqual(before);

      await page.click('button', 'Sign in');
      expect(await signedIn()).toContain(elsewhere.baseUrl);
    });
  });
}
