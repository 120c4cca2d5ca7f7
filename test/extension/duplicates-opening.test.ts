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
const viewUrl = () => browser.runtime.getURL(DUPLICATES_VIEW);
const optionsUrl = (hash: string) => `${browser.runtime.getURL('/options.html')}${hash}`;

let nextTab = 1;
/** A tab the browser reports as it does: created (on about:blank), then each load `loading` with its address (none on a reload). */
async function newTab(): Promise<number> {
  const id = nextTab++;
  await fakeBrowser.tabs.onCreated.trigger({ id, index: 0, url: 'about:blank' } as never);
  return id;
}
const tabUpdated = (id: number, change: { status?: 'loading' | 'complete'; url?: string }, shown = change.url) =>
  fakeBrowser.tabs.onUpdated.trigger(id, change, { id, index: 0, url: shown } as never);
/** A document's load from its start to its end, as Chromium reports it (also for a switch of section inside a page). */
async function load(id: number, url: string): Promise<void> {
  await tabUpdated(id, { status: 'loading', url });
  await tabUpdated(id, { status: 'complete' }, url);
}

describe('the Duplicates view’s search, sent as its tab starts to load', () => {
  it('goes before the page asks, and the page’s ask takes it; Search again sends anew', async () => {
    await load(await newTab(), viewUrl());
    await vi.waitFor(() => expect(searches()).toBe(1));
    const first = await bg.handlers.findDuplicates({});
    expect(first.groups.map((g) => g.normalizedUrl)).toEqual(['a.example/x']);
    await bg.idle();
    expect(searches()).toBe(1);
    await bg.handlers.findDuplicates({});
    expect(searches()).toBe(2);
  });

  it('goes for a reload of the view, and for a tab that shows another document first', async () => {
    const tab = await newTab();
    await load(tab, 'https://a.example/x');
    await load(tab, viewUrl());
    await vi.waitFor(() => expect(searches()).toBe(1));
    await bg.handlers.findDuplicates({});
    await tabUpdated(tab, { status: 'loading' }, viewUrl());
    await vi.waitFor(() => expect(searches()).toBe(2));
    await bg.handlers.findDuplicates({});
    await bg.idle();
    expect(searches()).toBe(2);
  });

  it('is not sent for another section, another page, a switch of section inside the options page, or a tab it did not see made', async () => {
    const root = browser.runtime.getURL('/');
    for (const url of [optionsUrl('#collections'), optionsUrl(''), `${root}library.html#duplicates`, 'https://a.example/options.html#duplicates']) await load(await newTab(), url);
    const inPage = await newTab();
    await load(inPage, optionsUrl('#collections'));
    await load(inPage, viewUrl());
    await load(inPage, optionsUrl('#tags'));
    await load(inPage, viewUrl());
    await load(nextTab++, viewUrl()); // its onCreated came while the background was stopped
    const late = await newTab();
    await tabUpdated(late, { url: viewUrl() }); // the address alone
    await tabUpdated(late, { status: 'complete' }, viewUrl());
    await bg.idle();
    expect(searches()).toBe(0);
    await bg.handlers.findDuplicates({});
    expect(searches()).toBe(1);
  });

  it('two tabs loading the view at once: the second page sends its own, so no more go than pages ask', async () => {
    await load(await newTab(), viewUrl());
    await load(await newTab(), viewUrl());
    await bg.idle();
    expect(searches()).toBe(1);
    await Promise.all([bg.handlers.findDuplicates({}), bg.handlers.findDuplicates({})]);
    expect(searches()).toBe(2);
  });

  it('a search no page took within its time is not handed to a later ask, which sends its own', async () => {
    await load(await newTab(), viewUrl());
    await bg.idle();
    expect(searches()).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + OPENING_CLAIM_MS);
    await bg.handlers.findDuplicates({});
    expect(searches()).toBe(2);
  });

  it('a search that failed before the page asked is not handed over: the page sends its own', async () => {
    await bg.services.account.signOut();
    await load(await newTab(), viewUrl());
    await expect(bg.services.duplicates.find()).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
    await load(await newTab(), viewUrl());
    await bg.idle();
    await bg.services.account.signIn(t.baseUrl, u.token);
    await bg.idle();
    bg.requests.length = 0;
    expect((await bg.handlers.findDuplicates({})).total).toBe(1);
    expect(searches()).toBe(1);
  });
});
