import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientErrorCode } from '../../lib/client/errors.ts';
import { describeError } from '../../lib/client/user-text.ts';
import { type ExtensionBrowser, type ShelfProcess, closedPort, launchExtension, startShelf, submitSignIn } from './support.ts';

/**
 * Each way a sign-in can fail, as the options page shows it: describeError's
 * words in the alert, and still signed out. Four failures from one address stay
 * under the server's IP block (five in five minutes); the block has its own server.
 */
describe('sign-in failures shown in the options page, in Chromium', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;
  let page: Page;
  const tokens = { revoked: '', expired: '', free: '' };

  beforeAll(async () => {
    [shelf, browser] = await Promise.all([startShelf([]), launchExtension()]);
    const createToken = (user: string, name: string, ...extra: string[]) =>
      shelf.admin('token', 'create', '--user', user, '--name', name, '--scopes', 'all', ...extra) as Promise<{ tokenId: string; token: string }>;
    // A free account cannot be given a token: it gets one on Pro, then moves to free.
    const [revoked, expired, freeUser] = await Promise.all([
      createToken(shelf.userId, 'to revoke'),
      createToken(shelf.userId, 'expired', '--expires', '2020-01-01T00:00:00Z'),
      shelf.admin('user', 'create', '--name', 'Free user', '--email', 'free@example.com', '--plan', 'pro') as Promise<{ userId: string }>,
    ]);
    const [, free] = await Promise.all([shelf.admin('token', 'revoke', '--id', revoked.tokenId), createToken(freeUser.userId, 'free')]);
    await shelf.admin('user', 'plan', '--user', freeUser.userId, '--plan', 'free');
    Object.assign(tokens, { revoked: revoked.token, expired: expired.token, free: free.token });

    page = await browser.context.newPage();
    await page.goto(browser.url('options.html'));
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop()]);
  });

  const expectFailure = async (serverUrl: string, token: string, code: ClientErrorCode) => {
    await submitSignIn(page, serverUrl, token);
    const alert = page.getByRole('alert');
    const { title, action } = describeError({ code, message: '', retryAfterSeconds: undefined });
    await expect.poll(async () => (await alert.isVisible()) && (await alert.textContent()), { timeout: 10_000 }).toContain(title);
    expect(await alert.textContent()).toContain(action);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
  };

  it('says when the token is not valid', async () => {
    await expectFailure(shelf.baseUrl, `tok_${'0'.repeat(64)}`, 'INVALID_TOKEN');
  });

  it('says when the token was revoked', async () => {
    await expectFailure(shelf.baseUrl, tokens.revoked, 'TOKEN_REVOKED');
  });

  it('says when the token has expired', async () => {
    await expectFailure(shelf.baseUrl, tokens.expired, 'TOKEN_EXPIRED');
  });

  it('says when the account is on the free plan', async () => {
    await expectFailure(shelf.baseUrl, tokens.free, 'API_ACCESS_PRO_REQUIRED');
  });

  it('says when the server cannot be reached', async () => {
    await expectFailure(`http://127.0.0.1:${await closedPort()}`, shelf.token, 'NETWORK_ERROR');
  });

  it('kept nothing from the failures: a reload still asks to sign in, and the good token then works', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('region', { name: 'Signed in' }).count()).toBe(0);
    await submitSignIn(page, shelf.baseUrl, shelf.token);
    await page.getByRole('region', { name: 'Signed in' }).waitFor({ timeout: 10_000 });
  });

  it('says when the server has blocked this address after repeated failures', async () => {
    const blocking = await startShelf([]);
    try {
      const bad = `tok_${'1'.repeat(64)}`;
      await page.getByRole('button', { name: 'Sign out' }).click();
      for (let i = 0; i < 5; i++) await expectFailure(blocking.baseUrl, bad, 'INVALID_TOKEN');
      await expectFailure(blocking.baseUrl, blocking.token, 'IP_BLOCKED');
    } finally {
      await blocking.stop();
    }
  });
});
