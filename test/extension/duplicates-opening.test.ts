// @vitest-environment node
// Node's fetch, as in the background service worker.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DUPLICATES_VIEW, setupDuplicatesOpening } from '../../entrypoints/background/duplicates-opening.ts';
import { OPENING_CLAIM_MS } from '../../entrypoints/background/duplicates.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground } from './support/background.ts';

const MINUTE = 60_000;
const TAB = 4;

let t: TestServer;
let bg: TestBackground;
let u: TestUser;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

beforeEach(async () => {
  fakeBrowser.reset();
  bg = createTestBackground();
  setupDuplicatesOpening(browser, bg.services.duplicates);
  u = await t.user();
  // All requests come from 127.0.0.1, and the search is a heavy endpoint (two a minute): each test in a fresh minute.
  await t.advance(2 * MINUTE);
  for (const url of ['https://a.example/x', 'https://www.a.example/x/']) await u.api('POST', '/bookmarks', { body: { url, title: 'X', description: 'x' } });
  await bg.services.account.signIn(t.baseUrl, u.token);
  await bg.idle();
  bg.requests.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

const searches = () => bg.requests.filter((r) => new URL(r.url).pathname === '/v1/bookmarks/duplicates').length;
/** The tab's address changes as a browser reports it: `status` 'loading' when a document starts to load. */
const tabUpdated = (change: { status?: 'loading' | 'complete'; url?: string }) =>
  fakeBrowser.tabs.onUpdated.trigger(TAB, change, { id: TAB, index: 0, url: change.url } as never);
const viewUrl = () => browser.runtime.getURL(DUPLICATES_VIEW);

describe('the Duplicates view’s search, sent as its tab starts to load', () => {
  it('goes before the page asks, and the page’s ask takes it; Search again sends anew', async () => {
    await tabUpdated({ status: 'loading', url: viewUrl() });
    await vi.waitFor(() => expect(searches()).toBe(1));
    const first = await bg.handlers.findDuplicates({});
    expect(first.groups.map((g) => g.normalizedUrl)).toEqual(['a.example/x']);
    await bg.idle();
    expect(searches()).toBe(1);
    await bg.handlers.findDuplicates({});
    expect(searches()).toBe(2);
  });

  it('is not sent for another section, another page, an address changed inside a page, or a page done loading', async () => {
    const root = browser.runtime.getURL('/');
    for (const change of [
      { status: 'loading', url: `${root}options.html#collections` },
      { status: 'loading', url: `${root}options.html` },
      { status: 'loading', url: `${root}library.html#duplicates` },
      { status: 'loading', url: 'https://a.example/options.html#duplicates' },
      { url: viewUrl() },
      { status: 'complete', url: viewUrl() },
      { status: 'loading' },
    ] as const) {
      await tabUpdated(change);
    }
    await bg.idle();
    expect(searches()).toBe(0);
    await bg.handlers.findDuplicates({});
    expect(searches()).toBe(1);
  });

  it('two tabs loading the view at once: the second page sends its own, so no more go than pages ask', async () => {
    await tabUpdated({ status: 'loading', url: viewUrl() });
    await tabUpdated({ status: 'loading', url: viewUrl() });
    await bg.idle();
    expect(searches()).toBe(1);
    await Promise.all([bg.handlers.findDuplicates({}), bg.handlers.findDuplicates({})]);
    expect(searches()).toBe(2);
  });

  it('a search no page took within its time is not handed to a later ask, which sends its own', async () => {
    await tabUpdated({ status: 'loading', url: viewUrl() });
    await bg.idle();
    expect(searches()).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + OPENING_CLAIM_MS);
    await bg.handlers.findDuplicates({});
    expect(searches()).toBe(2);
  });

  it('a search that failed before the page asked is not handed over: the page sends its own', async () => {
    await bg.services.account.signOut();
    await tabUpdated({ status: 'loading', url: viewUrl() });
    await expect(bg.services.duplicates.find()).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
    await tabUpdated({ status: 'loading', url: viewUrl() });
    await bg.idle();
    await bg.services.account.signIn(t.baseUrl, u.token);
    await bg.idle();
    bg.requests.length = 0;
    expect((await bg.handlers.findDuplicates({})).total).toBe(1);
    expect(searches()).toBe(1);
  });
});
