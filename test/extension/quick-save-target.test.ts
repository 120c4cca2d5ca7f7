// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type QuickSaveTarget, lastCollectionItem, quickSaveTargetItem } from '../../lib/storage/items.ts';
import { quickSave } from '../../entrypoints/background/quick-save.ts';
import { saveQueueItem } from '../../lib/storage/background-items.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground, stubPageFetch } from './support/background.ts';

/** Where the shortcut and the context menu save: the options page's choice, against the real server. */
const MINUTE = 60_000;

let t: TestServer;
let bg: TestBackground;
let u: TestUser;
let notes: { title: string; message: string }[];
let work: string;
let reading: string;
let page = 0;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

beforeEach(async () => {
  fakeBrowser.reset();
  await t.advance(2 * MINUTE);
  stubPageFetch(t);
  notes = [];
  vi.spyOn(fakeBrowser.runtime, 'getURL').mockImplementation((path: string) => `chrome-extension://shelf${path}`);
  vi.spyOn(fakeBrowser.notifications, 'create').mockImplementation(async (options: { title?: string; message?: string }) => {
    notes.push({ title: options.title ?? '', message: options.message ?? '' });
    return 'note';
  });
  bg = createTestBackground();
  u = await t.user();
  await bg.handlers.signIn({ serverUrl: t.baseUrl, token: u.token });
  await bg.idle();
  const collection = async (name: string) => ((await u.api('POST', '/collections', { body: { name } })).body as { data: { id: string } }).data.id;
  work = await collection('Work');
  reading = await collection('Reading');
});
afterEach(async () => {
  vi.restoreAllMocks();
  await bg.idle();
});

/** A quick save of a new page, as the shortcut makes it; the bookmark as the server then holds it. */
async function quickSaveNewPage(): Promise<Bookmark> {
  const url = `https://quick.example/page-${++page}`;
  await quickSave(browser, bg.services.bookmarks, url, 'A quick page');
  const { body } = await u.api('GET', `/bookmarks?url=${encodeURIComponent(url)}`);
  const [saved] = (body as { data: { data: Bookmark[] } }).data.data;
  if (!saved) throw new Error(`${url} was not saved`);
  return saved;
}

const choose = (target: QuickSaveTarget) => quickSaveTargetItem.set(target);

describe('quick saves go where the options page says', () => {
  it('to Unsorted by default, whatever collection the popup used last', async () => {
    await lastCollectionItem.set(work);
    expect(await quickSaveTargetItem.get()).toEqual({ kind: 'unsorted' });
    expect((await quickSaveNewPage()).collectionId).toBeNull();
    expect(notes).toEqual([{ title: 'Saved to Shelf', message: 'A quick page' }]);
    // A quick save to Unsorted is no choice of collection: the popup still offers the last one.
    expect(await lastCollectionItem.get()).toBe(work);
  });

  it('to the last collection used, when that is the choice', async () => {
    await choose({ kind: 'last' });
    await lastCollectionItem.set(reading);
    expect((await quickSaveNewPage()).collectionId).toBe(reading);
    await lastCollectionItem.set(null);
    expect((await quickSaveNewPage()).collectionId).toBeNull();
  });

  it('to the chosen collection, whatever the popup used last', async () => {
    await choose({ kind: 'collection', collectionId: work });
    await lastCollectionItem.set(reading);
    expect((await quickSaveNewPage()).collectionId).toBe(work);
    expect(notes.at(-1)?.title).toBe('Saved to Shelf');
  });

  it('to Unsorted when the chosen collection was trashed since, and the notification says why', async () => {
    await choose({ kind: 'collection', collectionId: work });
    expect((await u.api('DELETE', `/collections/${work}`)).status).toBe(200);
    expect((await quickSaveNewPage()).collectionId).toBeNull();
    expect(notes).toEqual([{ title: 'Saved to Shelf, in Unsorted', message: expect.stringContaining('the collection chosen for quick saves is no longer in your library') }]);
    // The choice stays: the options page shows it gone and lets the user choose again.
    expect(await quickSaveTargetItem.get()).toEqual({ kind: 'collection', collectionId: work });
  });

  it('to Unsorted when the last collection used is gone', async () => {
    await choose({ kind: 'last' });
    await lastCollectionItem.set('col_never_was');
    expect((await quickSaveNewPage()).collectionId).toBeNull();
    expect(notes.at(-1)?.title).toBe('Saved to Shelf, in Unsorted');
  });

  it('never moves a page already saved: the bookmark keeps its collection', async () => {
    const url = 'https://quick.example/kept';
    const before = ((await u.api('POST', '/bookmarks', { body: { url, title: 'Kept', collectionId: reading } })).body as { data: Bookmark }).data;
    await choose({ kind: 'collection', collectionId: work });
    await quickSave(browser, bg.services.bookmarks, url, 'Another title');
    expect(((await u.api('GET', `/bookmarks/${before.id}`)).body as { data: Bookmark }).data).toEqual(before);
  });
});

describe('a quick save that waited in the queue', () => {
  let proxy: FaultProxy;
  beforeAll(async () => {
    proxy = await startFaultProxy(t.baseUrl);
  });
  afterAll(() => proxy.close());

  /** A quick save into Work made while the server cannot be reached: it waits, as the notification says. */
  async function queuedIntoWork(url: string): Promise<void> {
    await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: u.token });
    await bg.idle();
    await choose({ kind: 'collection', collectionId: work });
    proxy.fault = 'down';
    await quickSave(browser, bg.services.bookmarks, url, 'Saved offline');
    expect(notes.at(-1)?.title).toBe('Waiting to be saved');
    expect(await saveQueueItem.get()).toMatchObject([{ body: { url, collectionId: work }, quick: true }]);
    notes.length = 0;
    proxy.fault = 'pass';
  }
  const savedAt = async (url: string) => ((await u.api('GET', `/bookmarks?url=${encodeURIComponent(url)}`)).body as { data: { data: Bookmark[] } }).data.data;

  it('goes to Unsorted when its collection was trashed before it went, and the notification says why', async () => {
    const url = 'https://quick.example/queued-gone';
    await queuedIntoWork(url);
    expect((await u.api('DELETE', `/collections/${work}`)).status).toBe(200);

    await bg.services.queue.drain(true);
    expect(await saveQueueItem.get()).toEqual([]);
    expect(await savedAt(url)).toMatchObject([{ title: 'Saved offline', collectionId: null }]);
    expect(notes).toEqual([{ title: 'Saved to Shelf, in Unsorted', message: 'Saved offline: the collection chosen for quick saves is no longer in your library. Choose another in Shelf’s options.' }]);
  });

  it('goes into its collection when that is still there, with no second notification', async () => {
    const url = 'https://quick.example/queued-kept';
    await queuedIntoWork(url);
    await bg.services.queue.drain(true);
    expect(await saveQueueItem.get()).toEqual([]);
    expect(await savedAt(url)).toMatchObject([{ collectionId: work }]);
    expect(notes).toEqual([]);
  });

  it('a popup save into a collection gone meanwhile is not moved: it is kept, refused, for the user to see', async () => {
    const url = 'https://quick.example/popup-gone';
    await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: u.token });
    await bg.idle();
    proxy.fault = 'down';
    await bg.handlers.saveBookmark({ bookmark: { url, title: 'From the popup', collectionId: work } });
    proxy.fault = 'pass';
    expect((await u.api('DELETE', `/collections/${work}`)).status).toBe(200);
    await bg.services.queue.drain(true);
    expect(await saveQueueItem.get()).toMatchObject([{ body: { url, collectionId: work }, refused: true, error: { code: 'NOT_FOUND' } }]);
    expect(await savedAt(url)).toEqual([]);
  });
});
