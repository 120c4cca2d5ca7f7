import type { Page } from 'playwright-core';
import type { Browser } from 'wxt/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { sniffImageType } from '../../lib/api/image-type.ts';
import { COVER_TARGET_BYTES } from '../../lib/image/card-cover.ts';
import { png } from '../support/images.ts';
import {
  ACTION_CLICKS,
  type ExtensionBrowser,
  type ShelfProcess,
  type Site,
  clickToolbarButton,
  dataOf,
  launchExtension,
  signInThroughOptions,
  startShelf,
  startSite,
} from './support.ts';

declare const chrome: typeof Browser;

const page = (title: string, head: string) => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html><head><title>${title}</title>${head}</head><body style="margin:0;background:#1d4ed8"><h1>${title}</h1></body></html>`,
});

/**
 * Automatic covers in Chromium, with the built extension and the server as a process: the toolbar button is
 * clicked as Chromium clicks it (the tab gets activeTab), the page saved from the popup, and the new bookmark
 * gets its cover on the server: the page's og:image, or a capture of the tab when it has none, card-sized.
 */
describe('automatic covers in Chromium', () => {
  let shelf: ShelfProcess;
  let site: Site;
  let browser: ExtensionBrowser;

  beforeAll(async () => {
    [shelf, site, browser] = await Promise.all([
      startShelf(),
      startSite(
        {},
        {
          '/with-preview': page('A page with a preview image', '<meta property="og:image" content="/preview.png">'),
          '/plain': page('A page without one', '<meta name="description" content="nothing to show">'),
          '/preview.png': { type: 'image/png', body: png(1200, 630, { rgb: [20, 160, 60] }) },
        },
      ),
      launchExtension({ args: ACTION_CLICKS }),
    ]);
    await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), shelf?.stop(), site?.close()]);
  });

  const bookmarkAt = async (url: string): Promise<Bookmark | undefined> =>
    dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.find((b) => b.url === url);

  /** The toolbar button clicked over the tab, then Save in the popup for that tab (in a window of its own, so the tab stays the one shown). */
  async function saveFromPopup(url: string): Promise<void> {
    const { page: tab, tabId } = await browser.openTab(url);
    await tab.bringToFront();
    await clickToolbarButton(browser, url);
    const opened = browser.context.waitForEvent('page', { predicate: (p) => p.url().includes(`popup.html?tabId=${tabId}`) });
    await (await browser.worker()).evaluate((id) => chrome.windows.create({ url: chrome.runtime.getURL(`/popup.html?tabId=${id}`), type: 'popup' }), tabId);
    const popup: Page = await opened;
    await expect.poll(() => popup.getByLabel('Title').inputValue(), { timeout: 10_000 }).not.toBe('');
    await popup.getByRole('button', { name: 'Save', exact: true }).click();
    await popup.getByRole('heading', { name: 'Saved in Shelf' }).waitFor({ timeout: 10_000 });
    await popup.close();
  }

  /** The cover the server serves for the page's bookmark, once it has one: a WebP of 25 KB at most, and its size as an image. */
  async function coverOf(url: string): Promise<{ width: number; height: number }> {
    await expect.poll(async () => (await bookmarkAt(url))?.coverImage ?? null, { timeout: 20_000 }).not.toBeNull();
    const coverUrl = (await bookmarkAt(url))!.coverImage!;
    const bytes = new Uint8Array(await (await fetch(coverUrl)).arrayBuffer());
    const viewer = await browser.context.newPage();
    await viewer.goto(browser.url('options.html'));
    const size = await viewer.evaluate(async (src) => {
      const image = new Image();
      image.src = src;
      await image.decode();
      return { width: image.naturalWidth, height: image.naturalHeight };
    }, coverUrl);
    await viewer.close();
    expect(sniffImageType(bytes)).toBe('image/webp');
    expect(bytes.byteLength).toBeLessThanOrEqual(COVER_TARGET_BYTES);
    return size;
  }

  it('gives a page saved from the popup its og:image, scaled to a card and compressed', async () => {
    const url = site.url('/with-preview');
    await saveFromPopup(url);
    const cover = await coverOf(url);
    // 1200 × 630 scaled to 480 wide.
    expect(cover).toEqual({ width: 480, height: 252 });
  });

  it('gives a page without a preview image a capture of the visible tab', async () => {
    const url = site.url('/plain');
    await saveFromPopup(url);
    const cover = await coverOf(url);
    expect(cover.width).toBe(480);
    expect(cover.height).toBeGreaterThan(100);
    expect(cover.height).toBeLessThanOrEqual(480);
  });
});
