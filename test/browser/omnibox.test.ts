import type { Browser } from 'wxt/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterInOmnibox, typeInOmnibox } from './omnibox-events.ts';
import { type ExtensionBrowser, type ShelfProcess, type Site, launchExtension, signInThroughOptions, startShelf, startSite } from './support.ts';

// The extension API inside functions that run in the worker: not a global of this Node process.
declare const chrome: typeof Browser;

describe('the address bar’s sh keyword, in Chromium', () => {
  let shelf: ShelfProcess;
  let browser: ExtensionBrowser;
  let site: Site;

  beforeAll(async () => {
    [shelf, browser, site] = await Promise.all([startShelf(), launchExtension(), startSite({ '/moss-lawns': 'Moss lawns', '/ferns': 'Fern corner', '/velvet': 'Velvet' })]);
    const save = (url: string, title: string) => shelf.api('POST', '/bookmarks', { url, title, description: 'd' });
    await save(site.url('/moss-lawns'), 'Moss lawns');
    await save(site.url('/ferns'), 'Fern corner');
    // "moss" is in its title only: the local index (URLs) cannot find it, the API's search does.
    await save(site.url('/velvet'), 'Velvet moss guide');
    await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop(), site?.close()]);
  });

  const contents = (call: { suggestions: Array<{ content: string }> } | undefined) => call?.suggestions.map((s) => s.content) ?? [];
  const tabUrls = () => browser.inWorker(async () => (await chrome.tabs.query({})).map((t) => t.pendingUrl ?? t.url));

  it('suggests the saved pages for "sh moss" from the local index at once, then the API’s matches; Enter opens the bookmark', async () => {
    // The sign-in's index sync fills the local index in the background: typed again until it has.
    let calls = await typeInOmnibox(browser, 'moss', 1_500);
    for (let tries = 0; tries < 20 && !contents(calls[0]).some((c) => c.endsWith('/moss-lawns')); tries++) calls = await typeInOmnibox(browser, 'moss', 1_500);

    // First the local index's match (its comparison key, shown as an address), then the search's, with titles.
    expect(contents(calls[0])).toEqual([`https://${site.url('/moss-lawns').replace('http://', '')}`]);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at).toBeGreaterThanOrEqual(300);
    expect(contents(calls[1]).sort()).toEqual([site.url('/moss-lawns'), site.url('/velvet')].sort());
    expect(calls[1]!.suggestions.find((s) => s.content === site.url('/velvet'))?.description).toBe(`Velvet moss guide — ${site.url('/velvet')}`);

    // Enter on the local suggestion opens the bookmark's own address (http here), not the index's key.
    expect(await tabUrls()).not.toContain(site.url('/moss-lawns'));
    await enterInOmnibox(browser, contents(calls[0])[0]!, 'newForegroundTab');
    await expect.poll(tabUrls, { timeout: 10_000 }).toContain(site.url('/moss-lawns'));

    // Enter on the search's suggestion, in the current tab.
    const { page, tabId } = await browser.openTab(site.url('/ferns'));
    await page.bringToFront();
    await expect.poll(() => browser.inWorker(async () => (await chrome.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.id), { timeout: 10_000 }).toBe(tabId);
    await enterInOmnibox(browser, site.url('/velvet'), 'currentTab');
    await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(site.url('/velvet'));
  }, 120_000);

  it('suggests nothing for words no bookmark holds, and Enter on them opens nothing', async () => {
    const before = (await tabUrls()).length;
    const calls = await typeInOmnibox(browser, 'zzqx', 1_000);
    expect(calls.map(contents)).toEqual([[], []]);
    await enterInOmnibox(browser, 'zzqx', 'newForegroundTab');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await tabUrls()).toHaveLength(before);
  }, 60_000);
});
