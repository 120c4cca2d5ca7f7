// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Account } from '../../entrypoints/background/account.ts';
import { RequestScheduler } from '../../lib/client/scheduler.ts';
import { SavedIndex } from '../../entrypoints/background/saved-index.ts';
import { indexSyncItem } from '../../lib/storage/background-items.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/server.ts';

/** The index is one stored record: concurrent changes and a sync running beside them must lose nothing. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ raiseLimits: true });
});
afterAll(() => t.close());

let index: SavedIndex;
let u: TestUser;
beforeEach(async () => {
  fakeBrowser.reset();
  u = await t.user();
  for (let i = 0; i < 450; i++) {
    await u.api('POST', '/bookmarks', { body: { url: `https://library.example/${i}`, title: `${i}`, description: '' } });
  }
  const account = new Account({ scheduler: new RequestScheduler(), hasHostPermission: async () => true });
  await account.signIn(t.baseUrl, u.token);
  index = new SavedIndex(account);
});

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
    expect(await indexSyncItem.get()).toMatchObject({ full: false, fetched: 200, requests: 1, running: false });
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
    expect(await indexSyncItem.get()).toMatchObject({ full: false, requests: 1 });
  });

  it('runs one sync at a time', async () => {
    const [a, b] = await Promise.all([index.sync(), index.sync()]);
    expect(a).toBe(450);
    expect(b).toBe(450);
  });
});
