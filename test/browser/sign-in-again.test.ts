import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import {
  type ExtensionBrowser,
  type ShelfProcess,
  type Site,
  dataOf,
  isFocused,
  launchExtension,
  nextOpenedPage,
  signInThroughOptions,
  startShelf,
  startSite,
} from './support.ts';
import { POLL_SERVER } from '../support/poll-server.ts';

type CreatedToken = { tokenId: string; token: string };

/**
 * A revoked token, as the user meets it: the popup says so with *Sign in again*, which opens the
 * Account section ready for a new token (made with the admin command it names); the save made
 * meanwhile waits and reaches the server after the new sign-in.
 */
describe('signing in again after the token is revoked, in Chromium', () => {
  let shelf: ShelfProcess;
  let site: Site;
  let browser: ExtensionBrowser;

  beforeAll(async () => {
    [shelf, site, browser] = await Promise.all([startShelf(), startSite({ '/article': 'Kept through a revoked token' }), launchExtension()]);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop(), site?.close()]);
  });

  const createToken = (name: string) => shelf.admin('token', 'create', '--user', shelf.userId, '--name', name, '--scopes', 'all') as Promise<CreatedToken>;

  // Three admin commands, each a process of its own: slow when the machine is loaded.
  it('keeps the save, opens the sign-in form from the popup, and sends the save after the new sign-in', { timeout: 60_000 }, async () => {
    const old = await createToken('to revoke');
    const options = await signInThroughOptions(browser, shelf.baseUrl, old.token);
    await options.close();
    await shelf.admin('token', 'revoke', '--id', old.tokenId);
    const { tabId } = await browser.openTab(site.url('/article'));

    const popup = await browser.context.newPage();
    await popup.goto(browser.url(`popup.html?tabId=${tabId}`));
    await expect.poll(() => popup.getByLabel('Title').inputValue()).toBe('Kept through a revoked token');
    await popup.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => popup.getByRole('status').textContent(), { timeout: 10_000 }).toBe('⏳ Waiting to be saved');
    expect(await popup.getByRole('alert').textContent()).toContain('This API token has been revoked.');
    // The server is local: the words are the command that makes this user a new token.
    const command = `npm run --silent admin -- --data DIR token create --user ${shelf.userId} --name Shelf --scopes all`;
    await popup.getByText(command).waitFor();

    const opened = nextOpenedPage(browser, /options\.html\?sign-in#account$/);
    await popup.getByRole('button', { name: 'Sign in again' }).click();
    const account = await opened;
    const token = account.getByLabel('API token');
    await expect.poll(() => isFocused(token), { timeout: 10_000 }).toBe(true);
    expect(await token.inputValue()).toBe('');
    expect(await account.getByLabel('Server URL').inputValue()).toBe(shelf.baseUrl);
    expect(await account.getByText(command).count()).toBe(1);

    const fresh = await createToken('fresh');
    await token.fill(fresh.token);
    await account.getByRole('button', { name: 'Sign in' }).click();
    await account.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 10_000 });
    const saved = async () => dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100', undefined, fresh.token)).data.map((b) => b.url);
    await expect.poll(saved, POLL_SERVER).toEqual([site.url('/article')]);
  });
});
