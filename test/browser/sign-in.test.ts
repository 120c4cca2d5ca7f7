import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExtensionBrowser, type ShelfProcess, launchExtension, submitSignIn, startShelf } from './support.ts';

describe('signing in through the options page, in Chromium', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;

  beforeAll(async () => {
    [shelf, browser] = await Promise.all([startShelf(), launchExtension()]);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop()]);
  });

  it('signs in with the server URL and token, shows the account, keeps it across reloads, and signs out', async () => {
    const page = await browser.context.newPage();
    await page.goto(browser.url('options.html'));
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);

    await submitSignIn(page, shelf.baseUrl, shelf.token);

    const account = page.getByRole('region', { name: 'Signed in' });
    await account.waitFor();
    const text = async () => (await account.textContent()) ?? '';
    expect(await text()).toContain('Local user');
    expect(await text()).toContain('local@localhost');
    expect(await text()).toMatch(/Plan\s*pro/i);
    expect(await text()).toMatch(/Status\s*active/i);
    expect(await text()).toContain(shelf.baseUrl);

    await page.reload();
    await page.getByRole('region', { name: 'Signed in' }).waitFor();
    expect(await text()).toContain('Local user');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('region', { name: 'Signed in' }).count()).toBe(0);
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
  });
});
