// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { saveQueueItem } from '../../lib/storage/background-items.ts';
import { savedIndexItem } from '../../lib/storage/items.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground } from './support/background.ts';

/** A save of a page already in the library (imported, or saved elsewhere since the last sync) changes only what the user changed. */
const MINUTE = 60_000;
const PAGE = 'https://elsewhere.example/article';

let t: TestServer;
let proxy: FaultProxy;
let bg: TestBackground;
let u: TestUser;
let collectionId: string;
let before: Bookmark;

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
  await t.advance(2 * MINUTE);
  proxy.fault = 'pass';
  bg = createTestBackground();
  u = await t.user();
  await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: u.token });
  await bg.idle();
  // Saved after the index's sync, from another device: the index does not know it.
  collectionId = ((await u.api('POST', '/collections', { body: { name: 'Research' } })).body as { data: { id: string } }).data.id;
  const tags = ['a', 'b', 'c', 'd', 'e', 'f'];
  before = ((await u.api('POST', '/bookmarks', { body: { url: PAGE, title: 'Its own title', description: '', note: 'Kept', tags, collectionId } })).body as { data: Bookmark })
    .data;
  expect((await savedIndexItem.get()).entries).toEqual({});
  proxy.requests.length = 0;
});
afterEach(() => bg.idle());

const onServer = async (): Promise<Bookmark> => ((await u.api('GET', `/bookmarks/${before.id}`)).body as { data: Bookmark }).data;
const sent = () => proxy.requests.filter((r) => !r.path.startsWith('/v1/bookmarks/stats')).map((r) => `${r.method} ${r.path}`);
/** What a popup that thought the page new sends: the tab's title, the last collection used, one tag typed. */
const newForm = { url: PAGE, title: 'The tab’s title', tags: ['added'], collectionId: null, note: '', isFavorite: false };

describe('a save of a URL the index does not know', () => {
  it('the popup’s look-up finds it with one request and the index learns it (the ✓)', async () => {
    const { bookmark } = await bg.handlers.lookupUrl({ url: 'https://www.elsewhere.example/article/' });
    expect(bookmark?.id).toBe(before.id);
    expect(sent()).toEqual(['GET /v1/bookmarks']);
    expect((await savedIndexItem.get()).entries).toMatchObject({ 'elsewhere.example/article': before.id });
  });

  it('a “new” save sends no POST: the bookmark gets the tag the user added and nothing else', async () => {
    const answer = await bg.handlers.saveBookmark({ bookmark: newForm, edits: { tagsAdded: ['added'] } });
    expect(answer).toMatchObject({ existed: true, bookmark: { id: before.id } });
    expect(sent()).toEqual(['GET /v1/bookmarks', `PATCH /v1/bookmarks/${before.id}`]);
    const after = await onServer();
    expect(after).toMatchObject({ title: 'Its own title', note: 'Kept', collectionId, isFavorite: false });
    expect([...after.tags].sort()).toEqual(['a', 'added', 'b', 'c', 'd', 'e', 'f']);
  });

  it('a save with no edits (a quick save) changes nothing and sends no write', async () => {
    const answer = await bg.handlers.saveBookmark({ bookmark: { url: PAGE, title: 'The tab’s title' } });
    expect(answer).toMatchObject({ existed: true, bookmark: { id: before.id } });
    expect(sent()).toEqual(['GET /v1/bookmarks']);
    expect(await onServer()).toEqual(before);
  });

  it('each field the user changed is changed, the others kept', async () => {
    await bg.handlers.saveBookmark({ bookmark: newForm, edits: { tagsAdded: [], note: 'Mine now', isFavorite: true } });
    expect(await onServer()).toMatchObject({ title: 'Its own title', tags: before.tags, collectionId, note: 'Mine now', isFavorite: true });
  });

  it('a queued save finds the bookmark made meanwhile and gives it only the user’s edits', async () => {
    await u.api('DELETE', `/bookmarks/${before.id}/permanent`);
    proxy.fault = 'down';
    const answer = await bg.handlers.saveBookmark({ bookmark: newForm, edits: { tagsAdded: ['added'] } });
    expect(answer.queued).not.toBeNull();
    expect((await saveQueueItem.get())[0]?.edits).toEqual({ tagsAdded: ['added'] });
    // Saved elsewhere while this one waited.
    const made = ((await u.api('POST', '/bookmarks', { body: { url: PAGE, title: 'Made elsewhere', description: '', tags: ['x'], collectionId } })).body as { data: Bookmark })
      .data;
    proxy.fault = 'pass';
    proxy.requests.length = 0;
    await bg.services.queue.drain(true);
    expect(await saveQueueItem.get()).toEqual([]);
    expect(sent()).not.toContain('POST /v1/bookmarks');
    const after = ((await u.api('GET', `/bookmarks/${made.id}`)).body as { data: Bookmark }).data;
    expect(after).toMatchObject({ title: 'Made elsewhere', collectionId });
    expect([...after.tags].sort()).toEqual(['added', 'x']);
  });
});

describe('after an import', () => {
  it('the index catches up as soon as the options page sees the import finish: imported pages get the ✓', async () => {
    const file = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<DL><p>', '<DT><A HREF="https://imported.example/old" ADD_DATE="978307200">Old</A>', '</DL><p>'].join('\n');
    // Straight to the server: its upload URL is its own.
    await bg.handlers.signIn({ serverUrl: t.baseUrl, token: u.token });
    await bg.idle();
    const job = await bg.handlers.startImport({ text: file });
    await vi.waitFor(async () => expect((await bg.handlers.getJob({ id: job.id })).status).toBe('completed'), { timeout: 10_000 });
    await bg.idle();
    const entries = (await savedIndexItem.get()).entries;
    expect(Object.keys(entries).sort()).toEqual(['elsewhere.example/article', 'imported.example/old']);
    const tab = await fakeBrowser.tabs.create({ url: 'https://imported.example/old' });
    await bg.services.icon.refreshAll();
    expect(await fakeBrowser.action.getBadgeText({ tabId: tab.id! })).toBe('✓');
  });
});
