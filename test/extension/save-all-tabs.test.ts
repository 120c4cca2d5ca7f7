// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { describeSaveAll } from '../../lib/client/save-all-text.ts';
import { replies } from '../../lib/messaging/replies.ts';
import { sendMessage } from '../../lib/messaging/transport.ts';
import { saveQueueItem } from '../../lib/storage/background-items.ts';
import { type SaveAllProgress, saveAllTabsItem } from '../../lib/storage/save-all-items.ts';
import { type Fault, type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { ShiftedClock } from '../support/manual-clock.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground, stubPageFetch } from './support/background.ts';

const MINUTE = 60_000;

let t: TestServer;
let proxy: FaultProxy;
let bg: TestBackground;
let clock: ShiftedClock;
let u: TestUser;
let windowId: number;

beforeAll(async () => {
  t = await startTestServer();
  proxy = await startFaultProxy(t.baseUrl);
});
afterAll(async () => {
  await proxy.close();
  await t.close();
});

beforeEach(async () => {
  fakeBrowser.reset();
  // Every request comes from 127.0.0.1: each test starts past the last one's gateway minute.
  await t.advance(2 * MINUTE);
  stubPageFetch(t);
  proxy.fault = 'pass';
  clock = new ShiftedClock();
  bg = createTestBackground({ clock });
  u = await t.user();
  await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: u.token });
  await bg.idle();
  windowId = (await fakeBrowser.windows.create({})).id!;
  proxy.requests.length = 0;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await bg.idle();
});

/** A tab of the test's window showing `url` under `title`. */
async function tab(url: string, title = ''): Promise<void> {
  const created = await fakeBrowser.tabs.create({ windowId, url });
  // The fake browser keeps what it is given; a real one reads the title from the page.
  await fakeBrowser.tabs.update(created.id!, { title } as { url?: string });
}

const saveAll = (input: { collectionId?: string | null; tags?: string[] } = {}) => sendMessage(bg.runtime, replies, 'saveAllTabs', { windowId, ...input });

async function library(): Promise<Bookmark[]> {
  const { body } = await u.api('GET', '/bookmarks?limit=200');
  return (body as { data: { data: Bookmark[] } }).data.data;
}

const posts = () => proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/bookmarks');
/** Requests that ask whether one page is saved (`GET /bookmarks?url=`): the proxy sees paths without their query. */
const lookUpsByUrl = (requests: readonly { url: string }[]) => requests.filter((r) => new URL(r.url).searchParams.has('url'));

describe('Save all tabs', () => {
  it('saves every web page of the window into the chosen collection with the shared tags, one request each', async () => {
    const { body } = await u.api('POST', '/collections', { body: { name: 'Reading' } });
    const collectionId = (body as { data: { id: string } }).data.id;
    for (let i = 1; i <= 5; i++) await tab(`https://tabs.example/${i}`, `Tab ${i}`);
    await tab('chrome://settings/', 'Settings');
    await tab('https://tabs.example/1', 'Tab 1 again'); // the same page in a second tab: one save

    const done = await saveAll({ collectionId, tags: ['later', 'tabs'] });
    expect(done).toMatchObject({ total: 5, notWeb: 1, saved: 5, skipped: 0, waiting: 0, failed: 0, running: false });
    expect(describeSaveAll(done)).toBe('Saved 5 tabs · 1 tab left out (not web pages).');

    const saved = await library();
    expect(saved.map((b) => b.title).sort()).toEqual(['Tab 1', 'Tab 2', 'Tab 3', 'Tab 4', 'Tab 5']);
    for (const b of saved) expect(b).toMatchObject({ collectionId, tags: ['later', 'tabs'] });
    // Each new page one POST, no look-up of its own: the index sync (the library's size, its newest page) vouches for the rest.
    expect(posts()).toHaveLength(5);
    expect(proxy.requests.length).toBeLessThanOrEqual(5 + 2);
    expect(lookUpsByUrl(bg.requests)).toEqual([]);
    expect(await bg.services.index.lookup('https://tabs.example/3')).toBe(saved.find((b) => b.url === 'https://tabs.example/3')!.id);
  });

  it('costs a request a page and the index’s two even when background work has spent its share of the minute', async () => {
    // The library scrolled to its end, say: the index's sync, background work, would wait out the minute.
    while ((await bg.scheduler.waitBefore({ priority: 'background' })) === 0) {
      await bg.scheduler.send({ priority: 'background' }, () => Promise.resolve(new Response('{}')));
    }
    expect(await bg.scheduler.waitBefore({ priority: 'user' })).toBe(0);
    for (let i = 1; i <= 5; i++) await tab(`https://busy.example/${i}`, `Busy ${i}`);
    const before = bg.requests.length;

    const done = await saveAll();
    expect(done).toMatchObject({ total: 5, saved: 5, waiting: 0, failed: 0 });
    expect(posts()).toHaveLength(5);
    expect(lookUpsByUrl(bg.requests.slice(before))).toEqual([]);
    expect(proxy.requests.length).toBeLessThanOrEqual(5 + 2);
  });

  it('leaves pages already saved as they are and costs them no request, even when saved elsewhere', async () => {
    const mine = await bg.handlers.saveBookmark({ bookmark: { url: 'https://tabs.example/kept', title: 'Kept as it is', tags: ['mine'] } });
    // Saved from another device: the index learns it from its sync, before any save.
    await u.api('POST', '/bookmarks', { body: { url: 'https://tabs.example/elsewhere', title: 'Saved elsewhere' } });
    await bg.idle();
    proxy.requests.length = 0;
    await tab('https://tabs.example/kept', 'Another title');
    await tab('https://tabs.example/elsewhere', 'Another title');
    await tab('https://tabs.example/new', 'New');

    const done = await saveAll({ tags: ['shared'] });
    expect(done).toMatchObject({ total: 3, saved: 1, skipped: 2, failed: 0, waiting: 0 });
    expect(describeSaveAll(done)).toBe('Saved 1 tab · 2 already saved.');
    expect(posts()).toHaveLength(1);
    expect(proxy.requests.some((r) => r.method === 'PATCH')).toBe(false);
    const byUrl = new Map((await library()).map((b) => [b.url, b]));
    expect(byUrl.get('https://tabs.example/kept')).toMatchObject({ id: mine.bookmark!.id, title: 'Kept as it is', tags: ['mine'] });
    expect(byUrl.get('https://tabs.example/elsewhere')).toMatchObject({ title: 'Saved elsewhere', tags: [] });
    expect(byUrl.get('https://tabs.example/new')).toMatchObject({ title: 'New', tags: ['shared'] });
  });

  it('shows one progress line as it goes, in storage for the popup', async () => {
    for (let i = 1; i <= 4; i++) await tab(`https://progress.example/${i}`, `Page ${i}`);
    const seen: SaveAllProgress[] = [];
    fakeBrowser.storage.local.onChanged.addListener(() => void saveAllTabsItem.get().then((p) => p && seen.push(p)));
    const done = await saveAll();
    await bg.idle();
    expect(seen[0]).toMatchObject({ total: 4, running: true });
    expect(describeSaveAll({ ...seen[0]!, saved: 2 })).toBe('2 of 4 saved…');
    expect(describeSaveAll({ ...seen[0]!, saved: 2, skipped: 1 })).toBe('2 of 4 saved, 1 already saved…');
    // Held back by the extension's own request budget: the line says when they go.
    expect(describeSaveAll({ ...seen[0]!, saved: 1, waiting: 2, goesAt: 90_000 }, 0)).toBe('1 of 4 saved, 2 queued (Shelf sends them in about 90 s)…');
    expect(describeSaveAll({ ...seen[0]!, failed: 1, error: { code: 'VALIDATION_ERROR', message: 'url: too long' } })).toBe(
      '0 of 4 saved, 1 not saved: Something in the form is not right…',
    );
    expect(seen.map((p) => p.saved)).toEqual([...seen.map((p) => p.saved)].sort((a, b) => a - b));
    expect(await saveAllTabsItem.get()).toEqual(done);
    expect(done).toMatchObject({ saved: 4, running: false });
  });

  it('saves the rest when one page is refused, and says why that one was not saved', async () => {
    await tab('https://partial.example/ok-1', 'One');
    await tab(`https://partial.example/${'x'.repeat(9000)}`, 'Too long an address');
    await tab('https://partial.example/ok-2', 'Two');

    const done = await saveAll();
    expect(done).toMatchObject({ total: 3, saved: 2, failed: 1, waiting: 0, error: { code: 'VALIDATION_ERROR' } });
    expect(describeSaveAll(done)).toBe('Saved 2 tabs · 1 not saved: Something in the form is not right.');
    expect((await library()).map((b) => b.title).sort()).toEqual(['One', 'Two']);
    // Refused for good: nothing waits to be tried again.
    expect(await saveQueueItem.get()).toEqual([]);
  });

  it.each<[string, Fault, number, RegExp]>([
    ['the server is down', 'down', 0, /^2 queued \(Shelf sends them as soon as the server takes them\)\.$/],
    // Longer than a user waits: never shown as an error, the queue waits it out, and the line says when they go.
    ['the server answers 429', { status: 429, code: 'RATE_LIMITED', retryAfter: 16 }, 16_000, /^2 queued \(Shelf sends them in about 1[56] s\)\.$/],
  ])('when %s, every page waits in the save queue and is saved once later', { timeout: 45_000 }, async (_, fault, retryAfterMs, said) => {
    await tab('https://later.example/a', 'A');
    await tab('https://later.example/b', 'B');
    proxy.fault = fault;
    const done = await saveAll({ tags: ['later'] });
    expect(done).toMatchObject({ total: 2, saved: 0, waiting: 2, failed: 0, error: null });
    expect(describeSaveAll(done)).toMatch(said);

    proxy.fault = 'pass';
    // The later try comes after the server's Retry-After: the background's clock moved past it, not waited out.
    clock.advance(retryAfterMs);
    await bg.services.queue.drain(true);
    expect(await saveQueueItem.get()).toEqual([]);
    const saved = await library();
    expect(saved.map((b) => b.url).sort()).toEqual(['https://later.example/a', 'https://later.example/b']);
    for (const b of saved) expect(b.tags).toEqual(['later']);
  });

  it('says so when the window holds no web page, and sends nothing', async () => {
    await tab('about:blank');
    const done = await saveAll();
    expect(done).toMatchObject({ total: 0, notWeb: 1, running: false });
    expect(describeSaveAll(done)).toBe('No tab in this window holds a web page Shelf can save.');
    expect(proxy.requests).toEqual([]);
  });

  it('refuses a message that is not a save-all request, and saves nothing', async () => {
    await tab('https://refused.example/', 'Refused');
    await expect(sendMessage(bg.runtime, replies, 'saveAllTabs', { windowId, tags: 'not a list' } as never)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(proxy.requests).toEqual([]);
  });
});
