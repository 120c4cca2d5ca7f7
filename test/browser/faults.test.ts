import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'wxt/browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type Fault, type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { storedValue } from '../support/stored-text.ts';
import { type Dispatchable, type ExtensionBrowser, type ShelfProcess, type Site, dataOf, launchExtension, signInThroughOptions, speedUpTime, startShelf, startSite } from './support.ts';

declare const chrome: typeof Browser;

/** How much faster time runs for the burst (see speedUpTime). */
const SPEED = 16;

/**
 * The built extension in Chromium against the real server, through a proxy of
 * the test's own that injects faults. Saves go by the context menu's event (see
 * quick-save.test.ts for why it is dispatched from the worker).
 */
describe('saves through faults, in Chromium', () => {
  let shelf: ShelfProcess;
  let site: Site;
  let proxy: FaultProxy;
  let browser: ExtensionBrowser;

  beforeAll(async () => {
    // --trust-proxy: the test's own reads name another address (X-Forwarded-For), so that they take nothing
    // from the per-address budget the extension keeps to (its requests come through the proxy without one).
    [shelf, site, browser] = await Promise.all([startShelf(['--allow-private-fetch', '--trust-proxy', '--test-clock']), startSite({}), launchExtension()]);
    proxy = await startFaultProxy(shelf.baseUrl);
    await signInThroughOptions(browser, proxy.baseUrl, shelf.token);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), proxy?.close(), site?.close()]);
    await shelf?.stop();
  });

  /** A read of the test's own, straight to the server from another address. */
  async function read<T>(path: string): Promise<T> {
    const res = await fetch(shelf.baseUrl + path, { headers: { Authorization: `Bearer ${shelf.token}`, 'X-Forwarded-For': '10.200.0.1' } });
    return dataOf<T>({ status: res.status, body: (await res.json()) as unknown });
  }

  /** Every bookmark of the account. */
  async function onServer(): Promise<Bookmark[]> {
    const all: Bookmark[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Bookmark[]; cursor: string | null } = await read(`/bookmarks?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...page.data);
      cursor = page.cursor;
    } while (cursor);
    return all;
  }
  const copies = async (urls: string[]) => {
    const saved = await onServer();
    return urls.map((url) => saved.filter((b) => b.url === url).length);
  };

  const worker = () => browser.worker();
  /** The ids of the notifications on screen: Chromium closes each after a few seconds, so a count alone may never grow. */
  const notifications = async () => Object.keys(await browser.inWorker(() => chrome.notifications.getAll()));
  const queued = async () => storedValue<{ body: { url: string } }[]>((await browser.inWorker(() => chrome.storage.local.get('saveQueue'))).saveQueue, []);

  /** Saves a link as the context menu does, and waits until its notification says how it went. */
  async function saveLink(url: string): Promise<void> {
    const before = new Set(await notifications());
    await (await worker()).evaluate((linkUrl) => {
      (chrome.contextMenus.onClicked as unknown as Dispatchable).dispatch({ menuItemId: 'shelf-save-link', linkUrl, pageUrl: linkUrl, editable: false });
    }, url);
    await expect.poll(async () => (await notifications()).some((id) => !before.has(id)), { timeout: 40_000 }).toBe(true);
  }

  const backOnline = async () => (await worker()).evaluate(() => void self.dispatchEvent(new Event('online')));

  it('after server faults of every kind, each save exists exactly once once the server is back', { timeout: 180_000 }, async () => {
    const faults: [string, Fault][] = [
      ['down', 'down'],
      ['500', 'error500'],
      ['malformed', 'malformed'],
      ['dropped', 'dropAfterCommit'],
      ['slow', { delayMs: 5_000 }],
    ];
    const urls = faults.map(([name]) => site.url(`/fault-${name}`));
    for (const [i, [, fault]] of faults.entries()) {
      proxy.fault = fault;
      await saveLink(urls[i]!);
    }
    // The server killed while a save is on its way, then started again (on another port, behind the same proxy).
    proxy.fault = { delayMs: 1_000 };
    const killedUrl = site.url('/fault-killed');
    const during = saveLink(killedUrl);
    await shelf.kill();
    await during;
    proxy.fault = 'pass';
    await shelf.restart();
    proxy.target = shelf.baseUrl;

    expect((await queued()).map((s) => s.body.url).sort()).toEqual([...urls.slice(0, 4), killedUrl].sort());
    await backOnline();
    await expect.poll(queued, { timeout: 60_000 }).toEqual([]);
    expect(await copies([...urls, killedUrl])).toEqual([1, 1, 1, 1, 1, 1]);
    // The saves the server made whose answers were lost were looked up by URL when sent again, found, and not made again.
    const lookups = proxy.requests.filter((r) => r.method === 'GET' && r.path === '/v1/bookmarks' && r.status === 200);
    expect(lookups.length).toBeGreaterThanOrEqual(urls.length + 1);
  });

  it('saves queued when the browser and its worker stop are sent when they start again', { timeout: 120_000 }, async () => {
    proxy.fault = 'down';
    const urls = [1, 2, 3].map((i) => site.url(`/stopped-${i}`));
    for (const url of urls) await saveLink(url);
    expect(await queued()).toHaveLength(3);
    const { tabId: before } = await browser.openTab(site.url('/stopped-1'));
    await expect.poll(() => browser.badge(before), { timeout: 10_000 }).toBe('3');

    // Chromium closed with saves waiting, the server back meanwhile, and Chromium started again: the worker starts
    // afresh, finds them in storage and sends them at its start. The server comes back only once Chromium has closed,
    // so that the old worker's half-minute alarm cannot send them first.
    await browser.relaunch(() => {
      proxy.fault = 'pass';
    });
    await expect.poll(queued, { timeout: 60_000 }).toEqual([]);
    expect(await copies(urls)).toEqual([1, 1, 1]);
    const { tabId } = await browser.openTab(site.url('/stopped-1'));
    await expect.poll(() => browser.badge(tabId), { timeout: 10_000 }).toBe('✓');
  });

  it('a burst of 200 saves with a full sync beside it meets no 429 and loses no save', { timeout: 600_000 }, async () => {
    proxy.fault = 'pass';
    proxy.requests.length = 0;
    // Paced by the API's 60 a minute per address, the burst takes over 4 minutes of real time: time runs faster
    // in the worker and the server alike, the limits and the scheduler's margins as they are.
    const fast = await speedUpTime(browser, shelf, SPEED);
    const total = async () => (await read<{ total: number }>('/bookmarks/stats')).total;
    const before = await total();
    const urls = Array.from({ length: 200 }, (_, i) => site.url(`/burst-${i}`));
    // A full pass over the library beside the burst: the hourly sync's alarm, with the last full pass made a day
    // old first (while nothing else writes the index), then the 200 saves at once. The dispatch waits for
    // nothing in the worker, so that it runs exactly once.
    await browser.inWorker(async () => {
      const { savedIndex } = await chrome.storage.local.get('savedIndex');
      await chrome.storage.local.set({ savedIndex: JSON.stringify({ ...(JSON.parse(savedIndex as string) as object), fullSyncedAt: 0 }) });
    });
    await (await worker()).evaluate((links) => {
      (chrome.alarms.onAlarm as unknown as Dispatchable).dispatch({ name: 'shelf-sync-saved-index', scheduledTime: Date.now() });
      for (const linkUrl of links) {
        (chrome.contextMenus.onClicked as unknown as Dispatchable).dispatch({ menuItemId: 'shelf-save-link', linkUrl, pageUrl: linkUrl, editable: false });
      }
    }, urls);
    await expect.poll(total, { timeout: 540_000, interval: 10_000 / SPEED }).toBeGreaterThanOrEqual(before + 200);
    await expect.poll(queued, { timeout: 60_000 }).toEqual([]);
    await fast.stop();
    expect(await copies(urls)).toEqual(urls.map(() => 1));
    expect(proxy.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(proxy.requests.some((r) => r.method === 'GET' && r.path === '/v1/bookmarks/stats')).toBe(true); // the full pass ran
  });
});
