import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Browser } from 'wxt/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { PNG_SIGNATURE, SVG, png } from '../support/images.ts';
import {
  type ExtensionBrowser,
  type ShelfProcess,
  type Site,
  clickSetAsCover,
  dataOf,
  launchExtension,
  notifications,
  recordNotifications,
  signInThroughOptions,
  startShelf,
  startSite,
} from './support.ts';


declare const chrome: typeof Browser;

const PNG = png(160, 90);
const page = (title: string, body: string) => ({ type: 'text/html; charset=utf-8', body: `<!doctype html><title>${title}</title><body>${body}</body>` });

/**
 * Set as cover in Chromium, with the built extension and the server as a
 * process. Chromium opens no context menu headless: the tests fire the
 * extension's own contextMenus.onClicked event with what Chromium passes for a
 * click on an image, so the listener, the permission check, the image reading
 * (in the page for a blob:), the conversion in the offscreen document and the
 * requests are all the shipped code.
 */
describe('set as cover in Chromium', () => {
  let shelf: ShelfProcess;
  let site: Site;
  let browser: ExtensionBrowser;
  let db: Database.Database;

  beforeAll(async () => {
    [shelf, site, browser] = await Promise.all([
      startShelf(),
      startSite(
        {},
        {
          '/article': page('An article with a picture', '<img src="/cover.png" alt="picture">'),
          '/drawing': page('A drawing', '<img src="/drawing.svg" alt="drawing">'),
          '/huge': page('A huge picture', '<img src="/huge.png" alt="huge">'),
          '/blob': page(
            'A picture made in the page',
            `<img alt="made here"><script>fetch('/cover.png').then((r) => r.blob()).then((b) => { document.querySelector('img').src = URL.createObjectURL(b); });</script>`,
          ),
          '/free': page('Free plan page', '<img src="/cover.png" alt="picture">'),
          '/cover.png': { type: 'image/png', body: PNG },
          '/drawing.svg': { type: 'image/svg+xml', body: SVG },
          '/huge.png': { type: 'image/png', body: new Uint8Array(12 * 1024 * 1024).fill(9) },
          '/broken': page('A broken picture', '<img src="/broken.avif" alt="broken">'),
          '/broken.avif': { type: 'image/avif', body: 'not really an AVIF file' },
          '/elsewhere': page('A picture from elsewhere', ''),
        },
      ),
      launchExtension(),
    ]);
    db = new Database(join(shelf.dataDir, 'shelf.db'), { readonly: true });
    await signInThroughOptions(browser, shelf.baseUrl, shelf.token);
    await recordNotifications(browser);
  });

  afterAll(async () => {
    db?.close();
    await Promise.all([browser?.close(), shelf?.stop(), site?.close()]);
  });

  const bookmarkAt = async (url: string): Promise<Bookmark | undefined> =>
    dataOf<{ data: Bookmark[] }>(await shelf.api('GET', '/bookmarks?limit=100')).data.find((b) => b.url === url);

  const notes = () => notifications(browser);

  const reservations = () => (db.prepare(`SELECT COUNT(*) AS n FROM upload_reservations WHERE kind = 'cover'`).get() as { n: number }).n;

  async function nextNote(before: number): Promise<{ title: string; message: string }> {
    await expect.poll(async () => (await notes()).length, { timeout: 15_000 }).toBeGreaterThan(before);
    const { title, message } = (await notes())[before]!;
    return { title, message };
  }

  async function coverBytes(bookmark: Bookmark | undefined): Promise<Uint8Array> {
    expect(bookmark?.coverImage).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/storage\/files\/fil_/);
    const res = await fetch(bookmark!.coverImage!);
    expect(res.status).toBe(200);
    return new Uint8Array(await res.arrayBuffer());
  }

  it('saves a page that is not saved yet and sets the PNG as its cover, byte for byte; the popup shows it', async () => {
    const { tabId } = await browser.openTab(site.url('/article'));
    const before = (await notes()).length;

    await clickSetAsCover(browser, tabId, site.url('/cover.png'));

    expect(await nextNote(before)).toEqual({ title: 'Page saved, with its cover', message: 'An article with a picture' });
    const bookmark = await bookmarkAt(site.url('/article'));
    expect(await coverBytes(bookmark)).toEqual(PNG);
    await expect.poll(() => browser.badge(tabId)).toBe('✓');

    const popup: Page = await browser.context.newPage();
    await popup.goto(browser.url(`popup.html?tabId=${tabId}`));
    const cover = popup.getByRole('img', { name: 'Cover' });
    await cover.waitFor({ timeout: 10_000 });
    // Loaded from the server's origin: the extension pages' CSP lets it show.
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    await popup.getByRole('button', { name: 'Remove cover' }).click();
    await popup.getByRole('status').filter({ hasText: 'Cover removed' }).waitFor({ timeout: 10_000 });
    expect((await bookmarkAt(site.url('/article')))?.coverImage).toBeNull();
    await popup.close();
  });

  it('converts an SVG to PNG in the offscreen document', async () => {
    const { tabId } = await browser.openTab(site.url('/drawing'));
    const before = (await notes()).length;

    await clickSetAsCover(browser, tabId, site.url('/drawing.svg'));

    expect(await nextNote(before)).toMatchObject({ title: 'Page saved, with its cover' });
    const bytes = await coverBytes(await bookmarkAt(site.url('/drawing')));
    expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    // IHDR: the drawing's own size, 120 × 80.
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([120, 80]);
  });

  it('reads a blob: image in its page', async () => {
    const { page: tab, tabId } = await browser.openTab(site.url('/blob'));
    const blobUrl = await tab.locator('img').evaluate(async (img: HTMLImageElement) => {
      while (!img.src.startsWith('blob:')) await new Promise((resolve) => setTimeout(resolve, 20));
      return img.src;
    });
    const before = (await notes()).length;

    await clickSetAsCover(browser, tabId, blobUrl);

    expect(await nextNote(before)).toMatchObject({ title: 'Page saved, with its cover' });
    expect(await coverBytes(await bookmarkAt(site.url('/blob')))).toEqual(PNG);
  });

  it('refuses a 12 MB image in words, with nothing saved and no upload reserved', async () => {
    const { tabId } = await browser.openTab(site.url('/huge'));
    const reserved = reservations();
    const before = (await notes()).length;

    await clickSetAsCover(browser, tabId, site.url('/huge.png'));

    expect(await nextNote(before)).toEqual({ title: 'Cover not set: That image is larger than 10 MB.', message: 'Choose a smaller image.' });
    expect(await bookmarkAt(site.url('/huge'))).toBeUndefined();
    expect(reservations()).toBe(reserved);
  });

  it('refuses in words an image that cannot be converted (the offscreen document cannot decode it)', async () => {
    const { tabId } = await browser.openTab(site.url('/broken'));
    const before = (await notes()).length;

    await clickSetAsCover(browser, tabId, site.url('/broken.avif'));

    expect(await nextNote(before)).toEqual({
      title: 'Cover not set: Shelf cannot use that image as a cover.',
      message: 'Shelf could not convert this AVIF image to PNG; choose a JPEG, PNG, GIF or WebP image.',
    });
    expect(await bookmarkAt(site.url('/broken'))).toBeUndefined();
    // The offscreen document was closed after its one conversion.
    expect(await browser.inWorker(() => chrome.offscreen.hasDocument())).toBe(false);
  });

  it('says so when it may not read the image’s site (a permission not granted, and no click to ask during)', async () => {
    const { tabId } = await browser.openTab(site.url('/elsewhere'));
    const before = (await notes()).length;
    const elsewhere = site.url('/cover.png').replace('127.0.0.1', '127.0.0.2');

    await clickSetAsCover(browser, tabId, elsewhere);

    expect(await nextNote(before)).toEqual({
      title: 'Cover not set: Shelf could not read that image.',
      message: `Shelf may not read images from ${new URL(elsewhere).origin}; allow it when your browser asks.`,
    });
    expect(await bookmarkAt(site.url('/elsewhere'))).toBeUndefined();
  });

  it('tells a free-plan account that covers need Pro, before any upload', async () => {
    await shelf.admin('user', 'plan', '--user', shelf.userId, '--plan', 'free');
    try {
      const { tabId } = await browser.openTab(site.url('/free'));
      const reserved = reservations();
      const before = (await notes()).length;

      await clickSetAsCover(browser, tabId, site.url('/cover.png'));

      expect(await nextNote(before)).toEqual({
        title: 'Cover not set: Cover images need the Pro plan.',
        message: 'Nothing was uploaded. Upgrade the account to Pro to set covers.',
      });
      expect(reservations()).toBe(reserved);
    } finally {
      await shelf.admin('user', 'plan', '--user', shelf.userId, '--plan', 'pro');
    }
    expect(await bookmarkAt(site.url('/free'))).toBeUndefined();
  });
});
