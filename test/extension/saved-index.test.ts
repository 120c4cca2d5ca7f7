// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Account } from '../../entrypoints/background/account.ts';
import { RequestScheduler } from '../../lib/client/scheduler.ts';
import { SavedIndex } from '../../entrypoints/background/saved-index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** The index is one stored record: concurrent changes and a sync running beside them must lose nothing. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ raiseLimits: true });
});
afterAll(() => t.close());

let index: SavedIndex;
beforeEach(async () => {
  fakeBrowser.reset();
  const u = await t.user();
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

  it('runs one sync at a time', async () => {
    const [a, b] = await Promise.all([index.sync(), index.sync()]);
    expect(a).toBe(450);
    expect(b).toBe(450);
  });
});
