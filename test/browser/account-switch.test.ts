import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'wxt/browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { storedValue } from '../support/stored-text.ts';
import { type Dispatchable, type ExtensionBrowser, type ShelfProcess, type Site, dataOf, launchExtension, signInThroughOptions, startShelf, startSite, submitSignIn } from './support.ts';
import { POLL_SERVER } from '../support/poll-server.ts';

declare const chrome: typeof Browser;

/**
 * Saves queued by one account, then a sign-out and a sign-in as another, in the
 * options page as a user does it: the saves are held for their account (never
 * sent with the other's token) and go when it signs in again.
 */
describe('queued saves across accounts, in Chromium', () => {
  let shelf: ShelfProcess;
  let site: Site;
  let proxy: FaultProxy;
  let browser: ExtensionBrowser;
  let page: Page;
  let other: { email: string; token: string };

  beforeAll(async () => {
    [shelf, site, browser] = await Promise.all([startShelf(), startSite({}), launchExtension()]);
    proxy = await startFaultProxy(shelf.baseUrl);
    const { userId } = (await shelf.admin('user', 'create', '--name', 'Other user', '--email', 'other@example.com', '--plan', 'pro')) as { userId: string };
    const { token } = (await shelf.admin('token', 'create', '--user', userId, '--name', 'other', '--scopes', 'all')) as { token: string };
    other = { email: 'other@example.com', token };
    page = await signInThroughOptions(browser, proxy.baseUrl, shelf.token);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), proxy?.close(), site?.close()]);
    await shelf?.stop();
  });

  const urlsOf = async (token: string) => dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100', undefined, token)).data.map((b) => b.url).sort();
  const queued = async () => storedValue<unknown[]>((await browser.inWorker(() => chrome.storage.local.get('saveQueue'))).saveQueue, []);
  const held = () => page.getByRole('region', { name: 'Saves waiting for another account' });

  it('holds the first account’s saves while another is signed in, and sends them, once each, when it is back', { timeout: 60_000 }, async () => {
    proxy.fault = 'down';
    const urls = [site.url('/first-1'), site.url('/first-2')];
    await (await browser.worker()).evaluate((links) => {
      for (const linkUrl of links) (chrome.contextMenus.onClicked as unknown as Dispatchable).dispatch({ menuItemId: 'shelf-save-link', linkUrl, pageUrl: linkUrl, editable: false });
    }, urls);
    await expect.poll(async () => (await queued()).length, { timeout: 20_000 }).toBe(2);
    proxy.fault = 'pass';
    const first = (await dataOf<{ email: string }>(await shelf.api('POST', '/auth/verify'))).email;

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(async () => held().textContent(), { timeout: 10_000 }).toContain(`2 saves waiting for ${first} at ${proxy.baseUrl}.`);

    proxy.requests.length = 0;
    await submitSignIn(page, proxy.baseUrl, other.token);
    await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 10_000 });
    // Everything that would send the queue: the browser coming online, and the sign-in itself.
    await (await browser.worker()).evaluate(() => void self.dispatchEvent(new Event('online')));
    expect(await held().textContent()).toContain(`2 saves waiting for ${first}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/bookmarks')).toEqual([]);
    expect(await urlsOf(other.token)).toEqual([]);
    expect(await urlsOf(shelf.token)).toEqual([]);

    await page.getByRole('button', { name: 'Change server or token' }).click();
    await submitSignIn(page, proxy.baseUrl, shelf.token);
    await expect.poll(() => urlsOf(shelf.token), POLL_SERVER).toEqual([...urls].sort());
    await expect.poll(queued, { timeout: 10_000 }).toEqual([]);
    await expect.poll(() => held().count(), { timeout: 10_000 }).toBe(0);
    expect(await urlsOf(other.token)).toEqual([]);
    expect(proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/bookmarks')).toHaveLength(2);
  });
});
