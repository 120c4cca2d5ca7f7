// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { RequestScheduler, type ScheduledRequest } from '../../lib/client/scheduler.ts';
import { libraryReplies } from '../../lib/messaging/library-replies.ts';
import { sendMessage } from '../../lib/messaging/transport.ts';
import { pendingOpensItem } from '../../lib/storage/background-items.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground, stubPageFetch } from './support/background.ts';

const MINUTE = 60_000;

let t: TestServer;
let proxy: FaultProxy;
let bg: TestBackground;
let u: TestUser;
let bookmark: Bookmark;

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
  bg = createTestBackground();
  u = await t.user();
  await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: u.token });
  await bg.idle();
  const saved = await bg.handlers.saveBookmark({ bookmark: { url: 'https://opened.example/page', title: 'Opened page' } });
  if (!saved.bookmark) throw new Error('not saved at once');
  bookmark = saved.bookmark;
  await bg.idle();
  proxy.requests.length = 0;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await bg.idle();
});

/** Opens of the bookmark from a page, as the side panel sends them. */
const open = (times: number) => Promise.all(Array.from({ length: times }, () => sendMessage(bg.runtime, libraryReplies, 'bookmarkOpened', { id: bookmark.id })));

const patches = () => proxy.requests.filter((r) => r.method === 'PATCH' && r.path === `/v1/bookmarks/${bookmark.id}`);

async function clickCountOnServer(): Promise<number> {
  const { body } = await u.api('GET', `/bookmarks/${bookmark.id}`);
  return (body as { data: Bookmark }).data.clickCount;
}

describe('opening a bookmark from Shelf', () => {
  it('sends three quick opens as one PATCH raising clickCount by 3', async () => {
    await open(3);
    expect(patches()).toHaveLength(0); // gathered, not sent at once
    await bg.services.opens.flush();
    expect(patches()).toHaveLength(1);
    expect(await clickCountOnServer()).toBe(3);
    expect(await pendingOpensItem.get()).toEqual([]);
  });

  it('adds to a count another device raised meanwhile', async () => {
    await u.api('PATCH', `/bookmarks/${bookmark.id}`, { body: { clickCount: 5 } });
    await open(2);
    await bg.services.opens.flush();
    expect(await clickCountOnServer()).toBe(7);
  });

  it('loses nothing when the worker restarts between the open and the send', async () => {
    await open(2);
    // A new worker: the same storage, nothing kept in memory.
    const restarted = createTestBackground();
    await restarted.services.opens.flush();
    expect(patches()).toHaveLength(1);
    expect(await clickCountOnServer()).toBe(2);
    expect(await pendingOpensItem.get()).toEqual([]);
  });

  it('sends both requests at background priority', async () => {
    const send = vi.spyOn(RequestScheduler.prototype, 'send');
    await open(1);
    await bg.services.opens.flush();
    const priorities = send.mock.calls.map(([request]) => (request as ScheduledRequest).priority);
    expect(priorities).toEqual(['background', 'background']);
  });

  it('keeps the opens when the server fails, and sends them on the next try', async () => {
    await open(2);
    proxy.fault = 'error500';
    await bg.services.opens.flush();
    expect(await pendingOpensItem.get()).toMatchObject([{ id: bookmark.id, count: 2 }]);
    proxy.fault = 'pass';
    await bg.services.opens.flush();
    expect(await clickCountOnServer()).toBe(2);
  });

  it('drops the opens of a bookmark trashed meanwhile, and of one deleted for good', async () => {
    await open(1);
    expect((await u.api('DELETE', `/bookmarks/${bookmark.id}`)).status).toBe(200);
    await bg.services.opens.flush();
    expect(await pendingOpensItem.get()).toEqual([]);
    expect(patches()).toHaveLength(0);
    await open(1);
    expect((await u.api('DELETE', `/bookmarks/${bookmark.id}/permanent`)).status).toBe(200);
    await bg.services.opens.flush();
    expect(await pendingOpensItem.get()).toEqual([]);
  });

  it('refuses a malformed id, recording nothing', async () => {
    await expect(sendMessage(bg.runtime, libraryReplies, 'bookmarkOpened', { id: '' })).rejects.toThrow();
    expect(await pendingOpensItem.get()).toEqual([]);
  });

  it('makes a smart folder on "Times opened" at least 1 list it', async () => {
    const { body } = await u.api('POST', '/smart-folders', {
      body: { name: 'Opened', rules: { match: 'all', conditions: [{ field: 'clickCount', operator: 'gte', value: '1' }] } },
    });
    const folderId = (body as { data: { id: string } }).data.id;
    const before = await bg.handlers.evaluateSmartFolder({ id: folderId, restart: true });
    expect(before.bookmarks.map((b) => b.id)).toEqual([]);
    await open(1);
    await bg.services.opens.flush();
    await t.advance(MINUTE); // the evaluation's heavy budget
    const after = await bg.handlers.evaluateSmartFolder({ id: folderId, restart: true });
    expect(after.bookmarks.map((b) => b.id)).toEqual([bookmark.id]);
  });
});
