// @vitest-environment node
// Node's fetch and no DOM, as in Chrome's background service worker; the page's own reading is in auto-cover-page.test.ts.
import type Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { quickSave } from '../../entrypoints/background/quick-save.ts';
import { BookmarkPage } from '../../lib/api/bookmarks.ts';
import { STORAGE_QUOTA_BYTES } from '../../lib/api/covers.ts';
import type { CardCover } from '../../lib/image/card-cover.ts';
import { autoCoverSettingsItem, autoCoverUsageItem, pendingCoversItem, shareBytes } from '../../lib/storage/auto-cover-items.ts';
import { userItem } from '../../lib/storage/items.ts';
import { dataOf } from '../support/expect.ts';
import { png } from '../support/images.ts';
import { type TestServer, type TestUser, openDb, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground, stubPageFetch } from './support/background.ts';

const MINUTE = 60_000;
const TAB = 7;
/** What the tab's page gives as its cover (the page's reading and shrinking are tested apart): a small real image. */
const COVER: CardCover = { bytes: png(48, 27), type: 'image/png' };

let t: TestServer;
let db: Database.Database;
let bg: TestBackground;
let u: TestUser;
let coverOfTab: ReturnType<typeof vi.fn<(tabId: number) => Promise<CardCover | null>>>;

beforeAll(async () => {
  t = await startTestServer();
  db = openDb(t);
});
afterAll(async () => {
  db.close();
  await t.close();
});

beforeEach(async () => {
  fakeBrowser.reset();
  coverOfTab = vi.fn(() => Promise.resolve(COVER));
  bg = createTestBackground({ coverOfTab });
  u = await t.user();
  await t.advance(2 * MINUTE);
  stubPageFetch(t);
  await bg.services.account.signIn(t.baseUrl, u.token);
  await bg.idle();
  bg.requests.length = 0;
});
afterEach(async () => {
  await settled();
  vi.restoreAllMocks();
});

/** The cover work behind a save has finished: nothing queued, nothing under way. */
async function settled(): Promise<void> {
  await bg.idle();
  await bg.services.autoCovers.drain();
  await bg.idle();
}

const flow = () => bg.requests.map(({ method, url }) => `${method} ${new URL(url).pathname.replace(/\/bm_[^/]+/, '/:id').replace(/\/uploads\/.+$/, '/uploads/:token')}`);
const STEPS = ['POST /v1/bookmarks/:id/cover/upload-url', 'POST /storage/uploads/:token', 'POST /v1/bookmarks/:id/cover'];
const SAVE = ['GET /v1/bookmarks', 'POST /v1/bookmarks'];

const save = (url: string, tabId: number | undefined = TAB) => bg.handlers.saveBookmark({ bookmark: { url }, ...(tabId !== undefined && { tabId }) });
const bookmarkAt = async (url: string) => dataOf(await u.api('GET', '/bookmarks?limit=100'), BookmarkPage).data.find((b) => b.url === url);
const myUsage = async () => (await autoCoverUsageItem.get()).find((usage) => usage.owner.userId === u.userId) ?? null;

describe('automatic covers at save time', () => {
  it('gives a new bookmark a cover after its one save request, and counts what it used', async () => {
    const saved = await save('https://example.com/new');
    expect(saved.existed).toBe(false);
    await settled();

    expect(flow()).toEqual([...SAVE, ...STEPS]);
    expect(coverOfTab).toHaveBeenCalledExactlyOnceWith(TAB);
    const bookmark = await bookmarkAt('https://example.com/new');
    expect(bookmark?.coverImage).toMatch(/^http/);
    expect(new Uint8Array(await (await fetch(bookmark!.coverImage!)).arrayBuffer())).toEqual(COVER.bytes);
    expect(await myUsage()).toMatchObject({ bytes: COVER.bytes.byteLength, covers: 1, stopped: null });
    expect(await pendingCoversItem.get()).toEqual([]);
  });

  it('answers the save without waiting for the cover, which goes after it', async () => {
    let release!: (cover: CardCover) => void;
    coverOfTab.mockImplementation(() => new Promise((resolve) => (release = resolve)));

    const saved = await save('https://example.com/slow-cover');

    expect(saved.bookmark?.url).toBe('https://example.com/slow-cover');
    await vi.waitFor(() => expect(coverOfTab).toHaveBeenCalled());
    expect(flow()).toEqual(SAVE);
    release(COVER);
    await settled();
    expect(flow()).toEqual([...SAVE, ...STEPS]);
  });

  it('gives one to a page saved by the shortcut or the page menu (their tab granted activeTab), none to a saved link', async () => {
    const { bookmarks, autoCovers } = bg.services;
    await quickSave(browser, bookmarks, 'https://example.com/shortcut', 'By the shortcut', { autoCovers, tabId: TAB });
    await quickSave(browser, bookmarks, 'https://example.com/linked', 'A link');
    await settled();

    expect(coverOfTab).toHaveBeenCalledExactlyOnceWith(TAB);
    expect((await bookmarkAt('https://example.com/shortcut'))?.coverImage).toMatch(/^http/);
    expect((await bookmarkAt('https://example.com/linked'))?.coverImage).toBeNull();
  });

  it('gives none to a page saved already, to a save without its tab, or with the setting off', async () => {
    await u.api('POST', '/bookmarks', { body: { url: 'https://example.com/known' } });
    expect((await save('https://example.com/known')).existed).toBe(true);
    await save('https://example.com/no-tab', undefined);
    await autoCoverSettingsItem.set({ enabled: false, sharePercent: 10 });
    await save('https://example.com/setting-off');
    await settled();

    expect(coverOfTab).not.toHaveBeenCalled();
    expect(flow().filter((line) => STEPS.includes(line))).toEqual([]);
    expect(await myUsage()).toBeNull();
  });

  it('is off by default for an account known as free, and when turned on asks the plan first', async () => {
    // Kept as free at sign-in; the account has moved to Pro since.
    const user = (await userItem.get())!;
    await userItem.set({ ...user, plan: 'free' });
    await save('https://example.com/free');
    await settled();
    expect(coverOfTab).not.toHaveBeenCalled();

    await autoCoverSettingsItem.set({ enabled: true, sharePercent: 10 });
    bg.requests.length = 0;
    await save('https://example.com/turned-on');
    await settled();
    expect(flow()).toEqual([...SAVE, 'POST /v1/auth/verify', ...STEPS]);
    expect((await bookmarkAt('https://example.com/turned-on'))?.coverImage).toMatch(/^http/);
  });

  it('stops at the share the user set, saying why, and uploads nothing over it', async () => {
    const owner = (await bg.services.account.owner())!;
    await autoCoverSettingsItem.set({ enabled: true, sharePercent: 5 });
    await autoCoverUsageItem.set([{ owner, bytes: shareBytes(5) - 10, covers: 900, stopped: null }]);

    await save('https://example.com/over-share');
    await settled();

    expect(flow()).toEqual(SAVE);
    expect(await myUsage()).toMatchObject({ bytes: shareBytes(5) - 10, covers: 900, stopped: 'share' });
    // Stopped: the next new page is not even read for a cover.
    coverOfTab.mockClear();
    await save('https://example.com/after-stop');
    await settled();
    expect(coverOfTab).not.toHaveBeenCalled();
  });

  it('stops for good when the server says the storage is full (STORAGE_LIMIT_REACHED)', async () => {
    await save('https://example.com/first');
    await settled();
    db.prepare(`UPDATE stored_files SET size = ? WHERE user_id = ? AND attached_at IS NOT NULL`).run(STORAGE_QUOTA_BYTES - 100, u.userId);

    await save('https://example.com/second');
    await settled();

    expect((await bookmarkAt('https://example.com/second'))?.coverImage).toBeNull();
    expect(await myUsage()).toMatchObject({ covers: 1, stopped: 'storage-full' });
    expect(await pendingCoversItem.get()).toEqual([]);
    coverOfTab.mockClear();
    bg.requests.length = 0;
    await save('https://example.com/third');
    await settled();
    expect(coverOfTab).not.toHaveBeenCalled();
    expect(flow()).toEqual(SAVE);
  });

  it('keeps a cover the server could not take now, and uploads it on a later try', async () => {
    const realFetch = globalThis.fetch;
    let failures = 0;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (String(input).includes('/storage/uploads/') && failures++ === 0) throw new TypeError('network down');
      return realFetch(input, init);
    });

    await save('https://example.com/flaky');
    await settled();
    const [waiting] = await pendingCoversItem.get();
    expect(waiting).toMatchObject({ attempts: 1 });
    expect(waiting!.nextAttemptAt).toBeGreaterThan(Date.now());
    expect((await fakeBrowser.alarms.get('shelf-auto-covers'))?.scheduledTime).toBe(waiting!.nextAttemptAt);

    // Its alarm: the time has come.
    await pendingCoversItem.set([{ ...waiting!, nextAttemptAt: Date.now() }]);
    await settled();
    expect((await bookmarkAt('https://example.com/flaky'))?.coverImage).toMatch(/^http/);
    expect(await pendingCoversItem.get()).toEqual([]);
    expect(await myUsage()).toMatchObject({ covers: 1 });
  });
});
