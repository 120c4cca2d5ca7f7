// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Account } from '../../entrypoints/background/account.ts';
import { type Clock, RequestScheduler, SPEC_LIMITS } from '../../lib/client/scheduler.ts';
import { SavedIndex } from '../../entrypoints/background/saved-index.ts';
import { Transfer } from '../../entrypoints/background/transfer.ts';
import { fullPassItem, indexSyncItem } from '../../lib/storage/background-items.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { type RawDb, openRawDb } from '../support/raw-db.ts';
import { seedBookmarks } from '../server/collections-tags-fixtures.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/server.ts';

/** The index is one stored record: concurrent changes and a sync running beside them must lose nothing. */
let t: TestServer;
let db: RawDb;
beforeAll(async () => {
  t = await startTestServer({ raiseLimits: true });
  db = openRawDb({ dataDir: t.dataDir, databaseUrl: null });
});
afterAll(async () => {
  await db.close();
  await t.close();
});

let index: SavedIndex;
let account: Account;
let scheduler: RequestScheduler;
let u: TestUser;
beforeEach(async () => {
  fakeBrowser.reset();
  u = await t.user();
  // Written straight to the database, oldest first a second apart until now: 450 saves through the API were most of
  // this file's 20 s of CPU.
  const now = Date.now();
  await seedBookmarks(db, u.userId, 450, { url: (i) => `https://library.example/${i}`, title: String, createdAt: (i) => now - (450 - i) * 1000 });
  scheduler = new RequestScheduler();
  account = new Account({ scheduler, hasHostPermission: async () => true });
  await account.signIn(t.baseUrl, u.token);
  index = new SavedIndex(account, scheduler);
});

/** The full pass's kept progress as it is written: how many entries each write holds (a removal is no write). */
function passWrites(): () => number[] {
  const set = vi.spyOn(fakeBrowser.storage.local, 'set');
  set.mockClear(); // a spy of a test before may still count
  return () =>
    set.mock.calls
      .map(([items]) => (items as Record<string, { entries?: object } | undefined>).indexSyncFullPass)
      .filter((kept) => kept !== undefined)
      .map((kept) => Object.keys(kept!.entries ?? {}).length / 200);
}

describe('the saved-page index', () => {
  it('keeps both of two saves made at the same moment', async () => {
    await Promise.all([index.remember({ id: 'bm_a', url: 'https://a.example/' }), index.remember({ id: 'bm_b', url: 'https://b.example/' })]);
    expect(await index.lookup('https://a.example/')).toBe('bm_a');
    expect(await index.lookup('https://b.example/')).toBe('bm_b');
  });

  it('keeps a save made while a sync pages through the library, and the sync’s own entries', async () => {
    const syncing = index.sync();
    await index.remember({ id: 'bm_new', url: 'https://new.example/' });
    expect(await syncing).toBe(451);
    expect(await index.lookup('https://new.example/')).toBe('bm_new');
    expect(await index.lookup('https://library.example/449')).not.toBeNull();
  });

  it('forgets a bookmark’s old address when its URL changes', async () => {
    await index.remember({ id: 'bm_moved', url: 'https://old.example/page' });
    await index.remember({ id: 'bm_moved', url: 'https://new.example/page' });
    expect(await index.lookup('https://old.example/page')).toBeNull();
    expect(await index.lookup('https://new.example/page')).toBe('bm_moved');
  });

  it('a full pass fetches 200 a request, oldest first, after asking the library’s size, and says how far it came', async () => {
    const progress: unknown[] = [];
    fakeBrowser.storage.local.onChanged.addListener((changes) => changes.indexSync && progress.push(changes.indexSync.newValue));
    expect(await index.sync({ full: true })).toBe(450);
    expect(await indexSyncItem.get()).toEqual({ full: true, fetched: 450, total: 450, requests: 4, running: false });
    expect(progress).toContainEqual({ full: true, fetched: 200, total: 450, requests: 2, running: true });
  });

  it('an incremental pass fetches only what is new, newest first, and keeps what it knew', async () => {
    await index.sync({ full: true });
    for (const i of [1, 2, 3]) await u.api('POST', '/bookmarks', { body: { url: `https://new.example/${i}`, title: `${i}`, description: '' } });
    expect(await index.sync()).toBe(453);
    // The library's size, then one page.
    expect(await indexSyncItem.get()).toMatchObject({ full: false, fetched: 200, total: 453, requests: 2, running: false });
    expect(await index.lookup('https://new.example/3')).not.toBeNull();
    expect(await index.lookup('https://library.example/0')).not.toBeNull();
  });

  it('an empty index, or one whose last full pass is a day old, gets a full pass', async () => {
    const day = 24 * 60 * 60_000;
    await index.sync({ now: Date.now() - day });
    expect(await indexSyncItem.get()).toMatchObject({ full: true });
    await index.sync();
    expect(await indexSyncItem.get()).toMatchObject({ full: true, requests: 4 });
    await index.sync();
    expect(await indexSyncItem.get()).toMatchObject({ full: false, requests: 2 });
  });

  it('bookmarks added elsewhere with old dates (an import keeps its file’s dates) turn the next sync into a full pass', async () => {
    await index.sync({ full: true });
    const year2001 = Date.UTC(2001, 0, 1) / 1000;
    const file = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<DL><p>', ...[0, 1, 2].map((i) => `<DT><A HREF="https://imported.example/${i}" ADD_DATE="${year2001 + i}">Imported ${i}</A>`), '</DL><p>'].join('\n');
    const transfer = new Transfer(account, () => undefined);
    const { id } = await transfer.startImport(file);
    await vi.waitFor(async () => expect((await transfer.job(id)).status).toBe('completed'), { timeout: 10_000 });

    // The newest page holds only bookmarks the index knows: a newest-first pass alone would stop there.
    expect(await index.sync()).toBe(453);
    expect(await indexSyncItem.get()).toMatchObject({ full: true, fetched: 453, total: 453, running: false });
    expect(await index.lookup('https://imported.example/1')).not.toBeNull();
    // Then the library's size and the index agree again: incremental.
    await index.sync();
    expect(await indexSyncItem.get()).toMatchObject({ full: false, requests: 2 });
  });

  it('a deletion made elsewhere is seen by the next sync', async () => {
    await index.sync({ full: true });
    const { body } = await u.api('GET', '/bookmarks?limit=1');
    const [gone] = (body as { data: { data: { id: string; url: string }[] } }).data.data;
    await u.api('DELETE', `/bookmarks/${gone!.id}`);
    expect(await index.sync()).toBe(449);
    expect(await indexSyncItem.get()).toMatchObject({ full: true, total: 449, running: false });
    expect(await index.lookup(gone!.url)).toBeNull();
  });

  it('a caller that knows the library’s size saves the stats request', async () => {
    await index.sync({ full: true, total: 450 });
    expect(await indexSyncItem.get()).toEqual({ full: true, fetched: 450, total: 450, requests: 3, running: false });
  });

  it('a full pass cut short by a stop of the background goes on at the next start from the page where it stopped', async () => {
    // A minute's budget of four requests past the user's reserve (the sign-in's, the library's size and one page),
    // and a clock whose waits never end: the pass stops where Firefox unloads an idle event page, waiting for a slot.
    const frozen: Clock = { now: () => Date.now(), setTimeout: () => 0, clearTimeout: () => undefined };
    const spent = { ...SPEC_LIMITS, gatewayPerMinute: SPEC_LIMITS.userReservePerMinute + 4 };
    const cutScheduler = new RequestScheduler({ clock: frozen, limits: spent });
    const cutAccount = new Account({ scheduler: cutScheduler, hasHostPermission: async () => true });
    await cutAccount.signIn(t.baseUrl, u.token);
    const writes = passWrites();
    void new SavedIndex(cutAccount, cutScheduler).sync({ full: true });
    await vi.waitFor(async () => expect(await fullPassItem.get()).toMatchObject({ progress: { fetched: 200, requests: 2 } }), { timeout: 5_000 });
    // Kept once, where it waits: the one page it has.
    expect(writes()).toEqual([1]);
    expect(await indexSyncItem.get()).toMatchObject({ fetched: 200, running: true });

    // The next start: a new index over what was stored, the budget's minute over.
    const sent = vi.spyOn(globalThis, 'fetch');
    expect(await new SavedIndex(account, scheduler).resume()).toBe(450);
    const lists = sent.mock.calls.map(([url]) => new URL(String(url))).filter((url) => url.pathname.endsWith('/bookmarks'));
    expect(lists.map((url) => url.searchParams.has('cursor'))).toEqual([true, true]);
    expect(await indexSyncItem.get()).toEqual({ full: true, fetched: 450, total: 450, requests: 4, running: false });
    expect(await fullPassItem.get()).toBeNull();
    expect(await index.lookup('https://library.example/0')).not.toBeNull();
    expect(await index.lookup('https://library.example/449')).not.toBeNull();
  });

  it('a full pass that never waits for the budget keeps no progress for a resume: the index alone is written, at its end', async () => {
    const writes = passWrites();
    const indexWrites = vi.spyOn(fakeBrowser.storage.local, 'set');
    expect(await index.sync({ full: true })).toBe(450);
    expect(writes()).toEqual([]);
    expect(indexWrites.mock.calls.filter(([items]) => 'savedIndex' in items)).toHaveLength(1);
    expect(await fullPassItem.get()).toBeNull();
    expect(await index.resume()).toBeNull();
  });

  it('a full pass keeps its progress each time it must wait for the budget, and no more', async () => {
    // One request a minute for background work: the pass waits after each page but its last (a clock moved by hand).
    const fast = new ManualClock(Date.now());
    const tight = { ...SPEC_LIMITS, gatewayPerMinute: SPEC_LIMITS.userReservePerMinute + 1, marginMs: 0 };
    const tightScheduler = new RequestScheduler({ clock: fast, limits: tight });
    const tightAccount = new Account({ scheduler: tightScheduler, hasHostPermission: async () => true });
    await tightAccount.signIn(t.baseUrl, u.token);
    const writes = passWrites();
    let ended = false;
    const syncing = new SavedIndex(tightAccount, tightScheduler).sync({ full: true, total: 450 }).finally(() => (ended = true));
    // Twenty seconds a step while the requests take their real time.
    for (let step = 0; !ended && step < 300; step++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      await fast.advance(20_000);
    }
    expect(await syncing).toBe(450);
    // Pages of 200, 200 and 50: kept before the second and third pages' waits, with what was fetched by then.
    expect(writes()).toEqual([1, 2]);
    expect(await fullPassItem.get()).toBeNull();
  });

  it('has nothing to resume once a pass has ended, or after sign-out forgot the library', async () => {
    await index.sync({ full: true });
    expect(await index.resume()).toBeNull();
    await fullPassItem.set({ cursor: 'c', entries: { 'https://library.example/0': 'bm_x' }, progress: { full: true, fetched: 200, total: 450, requests: 2, running: true } });
    await index.clear();
    expect(await index.resume()).toBeNull();
  });

  it('runs one sync at a time', async () => {
    const [a, b] = await Promise.all([index.sync(), index.sync()]);
    expect(a).toBe(450);
    expect(b).toBe(450);
  });
});
