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
  requestFromTests,
  signInThroughOptions,
  startShelf,
  startSite,
} from './support.ts';
import { POLL_SERVER } from '../support/poll-server.ts';

declare const chrome: typeof Browser;

const page = (title: string, head: string) => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html><head><title>${title}</title>${head}</head><body style="margin:0;background:#1d4ed8"><h1>${title}</h1></body></html>`,
});

const PAGES = {
  '/with-preview': page('A page with a preview image', '<meta property="og:image" content="/preview.png">'),
  '/plain': page('A page without one', '<meta name="description" content="nothing to show">'),
  '/preview.png': { type: 'image/png', body: png(1200, 630, { rgb: [20, 160, 60] }) },
  '/busy': page('A page with a busy preview image', '<meta property="og:image" content="/noise.png">'),
  // Random pixels: no image compresses worse.
  '/noise.png': { type: 'image/png', body: png(1200, 630, { noise: true }) },
};

interface Covers {
  url(path: string): string;
  /** The toolbar button clicked over the tab, then Save in the popup for that tab. */
  saveFromPopup(url: string): Promise<void>;
  /** The cover the server serves for the page's bookmark, once it has one: a WebP of 25 KB at most; answers its size as an image. */
  coverOf(url: string): Promise<{ width: number; height: number }>;
}

/**
 * Automatic covers in Chromium, with the built extension and the server as a process: the toolbar button is
 * clicked as Chromium clicks it (the tab gets activeTab), the page saved from the popup, and the new bookmark
 * gets its cover on the server. Each describe has a server, a site and a Chromium of its own, so that each has
 * the extension's request budget to itself (every save here opens two popups, each asking for its page's state).
 */
function describeCovers(title: string, tests: (covers: Covers) => void): void {
  describe(title, () => {
    let shelf: ShelfProcess;
    let site: Site;
    let browser: ExtensionBrowser;

    beforeAll(async () => {
      [shelf, site, browser] = await Promise.all([startShelf(), startSite({}, PAGES), launchExtension({ args: ACTION_CLICKS })]);
      await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
    });

    afterAll(async () => {
      await Promise.all([browser?.close(), shelf?.stop(), site?.close()]);
    });

    const bookmarkAt = async (url: string): Promise<Bookmark | undefined> =>
      dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.find((b) => b.url === url);

    tests({
      url: (path) => site.url(path),
      async saveFromPopup(url) {
        const { page: tab, tabId } = await browser.openTab(url);
        await tab.bringToFront();
        await clickToolbarButton(browser, url);
        // Playwright lists no action popup: the same popup for that tab, in a window of its own, so the tab stays the one shown.
        const opened = browser.context.waitForEvent('page', { predicate: (p) => p.url().includes(`popup.html?tabId=${tabId}`) });
        await (await browser.worker()).evaluate((id) => chrome.windows.create({ url: chrome.runtime.getURL(`/popup.html?tabId=${id}`), type: 'popup' }), tabId);
        const popup: Page = await opened;
        await expect.poll(() => popup.getByLabel('Title').inputValue(), { timeout: 10_000 }).not.toBe('');
        await popup.getByRole('button', { name: 'Save', exact: true }).click();
        await popup.getByRole('heading', { name: 'Saved in Shelf' }).waitFor({ timeout: 10_000 });
        await popup.close();
      },
      async coverOf(url) {
        await expect.poll(async () => (await bookmarkAt(url))?.coverImage ?? null, POLL_SERVER).not.toBeNull();
        const coverUrl = (await bookmarkAt(url))!.coverImage!;
        const bytes = new Uint8Array((await requestFromTests(coverUrl)).bytes);
        expect(sniffImageType(bytes)).toBe('image/webp');
        expect(bytes.byteLength).toBeLessThanOrEqual(COVER_TARGET_BYTES);
        const viewer = await browser.context.newPage();
        await viewer.goto(browser.url('options.html'));
        const size = await viewer.evaluate(async (src) => {
          const image = new Image();
          image.src = src;
          await image.decode();
          return { width: image.naturalWidth, height: image.naturalHeight };
        }, coverUrl);
        await viewer.close();
        return size;
      },
    });
  });
}

describeCovers('automatic covers in Chromium', (covers) => {
  it('gives a page saved from the popup its og:image, scaled to a card and compressed', async () => {
    const url = covers.url('/with-preview');
    await covers.saveFromPopup(url);
    // 1200 × 630 scaled to 480 wide.
    expect(await covers.coverOf(url)).toEqual({ width: 480, height: 252 });
  });

  it('gives a page without a preview image a capture of the visible tab', async () => {
    const url = covers.url('/plain');
    await covers.saveFromPopup(url);
    const cover = await covers.coverOf(url);
    expect(cover.width).toBe(480);
    expect(cover.height).toBeGreaterThan(100);
    expect(cover.height).toBeLessThanOrEqual(480);
  });
});

describeCovers('automatic covers in Chromium: an image that hardly compresses', (covers) => {
  it('keeps it within 25 KB by making it narrower', async () => {
    const url = covers.url('/busy');
    await covers.saveFromPopup(url);
    const cover = await covers.coverOf(url);
    expect(cover.width).toBeLessThan(480);
    expect(cover.height / cover.width).toBeCloseTo(630 / 1200, 1);
  });
});
