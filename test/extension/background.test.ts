// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts for why not happy-dom).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { startBackground } from '../../entrypoints/background/index.ts';
import type { MessageInput, MessageName, MessageOutput } from '../../lib/messaging/protocol.ts';
import { libraryReplies } from '../../lib/messaging/library-replies.ts';
import { replies } from '../../lib/messaging/replies.ts';
import { type Runtime, sendMessage } from '../../lib/messaging/transport.ts';
import { collectionsCacheItem, grantItem, savedIndexItem, settingsItem, tagsCacheItem, tokenItem, userItem } from '../../lib/storage/items.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { failure } from './support/failure.ts';
import { closedPort } from './support/network.ts';

const MINUTE = 60_000;
const BAD_TOKEN = `tok_${'e'.repeat(64)}`;

let t: TestServer;
let fetchSpy: MockInstance<typeof fetch>;
let contains: MockInstance<typeof fakeBrowser.permissions.contains>;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

beforeEach(async () => {
  fakeBrowser.reset();
  // What fakeBrowser does not implement, and startBackground touches: stubbed, never the server.
  contains = vi.spyOn(fakeBrowser.permissions, 'contains').mockResolvedValue(true);
  vi.spyOn(fakeBrowser.contextMenus.onClicked, 'addListener').mockImplementation(() => undefined);
  vi.spyOn(fakeBrowser.commands.onCommand, 'addListener').mockImplementation(() => undefined);
  vi.spyOn(fakeBrowser.omnibox.onInputStarted, 'addListener').mockImplementation(() => undefined);
  vi.spyOn(fakeBrowser.omnibox.onInputChanged, 'addListener').mockImplementation(() => undefined);
  vi.spyOn(fakeBrowser.omnibox.onInputEntered, 'addListener').mockImplementation(() => undefined);
  // All of the background's requests come from 127.0.0.1: start past the last test's gateway minute and failure window.
  await t.advance(6 * MINUTE);
  fetchSpy = vi.spyOn(globalThis, 'fetch');
  startBackground();
});
afterEach(async () => {
  await settled();
  vi.restoreAllMocks();
});

/** fakeBrowser's onMessage event, fired as a browser fires it: with a sendResponse (fakeBrowser's own sendMessage passes none). */
const deliver = fakeBrowser.runtime.onMessage.trigger as (message: unknown, sender: unknown, sendResponse: (reply: unknown) => void) => Promise<unknown>;

const OWN_PAGE = () => ({ id: fakeBrowser.runtime.id, url: fakeBrowser.runtime.getURL('/popup.html') });

/** An extension page's side of the messaging: messages cross as JSON and come back through sendResponse. */
const extensionPage: Runtime = {
  onMessage: {
    addListener: () => {
      throw new Error('the page side does not listen');
    },
  },
  sendMessage: (message) => new Promise((resolve) => void deliver(JSON.parse(JSON.stringify(message)), OWN_PAGE(), resolve)),
};
const send = <N extends MessageName>(name: N, input: MessageInput<N>): Promise<MessageOutput<N>> => sendMessage(extensionPage, { ...replies, ...libraryReplies }, name, input);

/** The background's requests to the API, as "METHOD /path" (the test's own clock moves are left out). */
function apiCalls(): string[] {
  return fetchSpy.mock.calls
    .map(([input, init]) => ({ url: String(input), method: init?.method ?? 'GET' }))
    .filter(({ url }) => url.startsWith(t.baseUrl))
    .map(({ url, method }) => `${method} ${new URL(url).pathname}`);
}

/** Waits until the work the background does behind its answers (index sync, icons) has stopped. */
async function settled(): Promise<void> {
  for (let quiet = 0; quiet < 3; ) {
    const count = fetchSpy.mock.calls.length;
    await Promise.allSettled(fetchSpy.mock.results.map((result) => result.value));
    await new Promise((resolve) => setTimeout(resolve, 10));
    quiet = fetchSpy.mock.calls.length === count ? quiet + 1 : 0;
  }
}

async function signedIn(u?: TestUser): Promise<TestUser> {
  const user = u ?? (await t.user());
  await send('signIn', { serverUrl: t.baseUrl, token: user.token });
  // The sync's requests to the server: vi.waitFor's own second was short of them on a loaded machine.
  await vi.waitFor(async () => expect((await savedIndexItem.get()).syncedAt).not.toBeNull(), { timeout: 5_000 });
  await settled();
  return user;
}

const badge = (tabId: number) => fakeBrowser.action.getBadgeText({ tabId });

async function tab(url: string): Promise<number> {
  const created = await fakeBrowser.tabs.create({ url });
  if (created.id === undefined) throw new Error('fakeBrowser gave no tab id');
  return created.id;
}

describe('signing in', () => {
  it('keeps the token in local storage only, and never hands it to a page', async () => {
    const u = await t.user();
    const state = await send('signIn', { serverUrl: t.baseUrl, token: u.token });
    expect(state).toMatchObject({ signedIn: true, serverUrl: t.baseUrl, user: { userId: u.userId, plan: 'pro' } });
    expect(JSON.stringify(state)).not.toContain(u.token);

    expect(await fakeBrowser.storage.sync.get()).toEqual({});
    expect(await fakeBrowser.storage.session.get()).toEqual({});
    expect(await fakeBrowser.storage.local.get('token')).toEqual({ token: u.token });
    const holders = Object.entries(await fakeBrowser.storage.local.get()).filter(([, value]) => JSON.stringify(value).includes(u.token));
    expect(holders.map(([key]) => key)).toEqual(['token']);
    expect(await tokenItem.get()).toBe(u.token);
    expect(apiCalls()[0]).toBe('POST /v1/auth/verify');
  });

  it('fills the saved-page index from the library behind its answer, and marks open tabs', async () => {
    const u = await t.user();
    await u.api('POST', '/bookmarks', { body: { url: 'https://example.com/saved-elsewhere', title: 'Elsewhere', description: '' } });
    fetchSpy.mockClear();
    const open = await tab('https://www.example.com/saved-elsewhere/');
    await signedIn(u);
    expect(Object.keys((await savedIndexItem.get()).entries)).toEqual(['example.com/saved-elsewhere']);
    await vi.waitFor(async () => expect(await badge(open)).toBe('✓'));
    expect(apiCalls()).toEqual(['POST /v1/auth/verify', 'GET /v1/auth/verify', 'GET /v1/bookmarks/stats', 'GET /v1/bookmarks']);
  });

  it('keeps what the token may do, answers it to the pages, and refuses unsent what it may not', async () => {
    const u = await t.user({ scopes: ['bookmarks:read', 'tags:write'] });
    const state = await send('signIn', { serverUrl: t.baseUrl, token: u.token });
    expect(state.scopes).toEqual(['bookmarks:read', 'tags:write']);
    expect(await grantItem.get()).toEqual({ scopes: ['bookmarks:read', 'tags:write'], expiresAt: null });
    expect(await send('getAccount', {})).toMatchObject({ scopes: ['bookmarks:read', 'tags:write'] });
    await settled();
    fetchSpy.mockClear();

    expect((await failure(send('saveBookmark', { bookmark: { url: 'https://example.com/read' } }))).code).toBe('SCOPE_REQUIRED');
    expect((await failure(send('createCollection', { name: 'Reading' }))).code).toBe('SCOPE_REQUIRED');
    expect(apiCalls()).toEqual([]);
  });

  it('a token kept by an older version learns its scopes once, on its first call', async () => {
    const u = await signedIn(await t.user({ scopes: ['bookmarks:read', 'collections:read'] }));
    await grantItem.set(null);
    fetchSpy.mockClear();
    expect((await failure(send('saveBookmark', { bookmark: { url: `https://example.com/${u.userId}` } }))).code).toBe('SCOPE_REQUIRED');
    await send('listCollections', { refresh: true });
    expect(apiCalls()).toEqual(['GET /v1/auth/verify', 'GET /v1/collections']);
  });

  it('a failed sign-in keeps the previous account, server and token', async () => {
    const first = await signedIn();
    const before = { settings: await settingsItem.get(), user: await userItem.get() };

    expect((await failure(send('signIn', { serverUrl: t.baseUrl, token: BAD_TOKEN }))).code).toBe('INVALID_TOKEN');
    const elsewhere = `http://127.0.0.1:${await closedPort()}/v1`;
    expect((await failure(send('signIn', { serverUrl: elsewhere, token: first.token }))).code).toBe('NETWORK_ERROR');

    expect(await tokenItem.get()).toBe(first.token);
    expect(await settingsItem.get()).toEqual(before.settings);
    expect(await userItem.get()).toEqual(before.user);
    expect(await send('getAccount', {})).toMatchObject({ signedIn: true, serverUrl: t.baseUrl, user: { userId: first.userId } });
  });

  it('refuses a server the extension may not reach, without a request', async () => {
    contains.mockResolvedValue(false);
    const err = await failure(send('signIn', { serverUrl: 'https://bookmarks.example.com', token: BAD_TOKEN }));
    expect(err.code).toBe('PERMISSION_DENIED');
    expect(contains).toHaveBeenCalledWith({ origins: ['https://bookmarks.example.com/*'] });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(await tokenItem.get()).toBeNull();
  });
});

describe('saving, the index and the toolbar icon', () => {
  const SAVED_URL = 'https://example.com/read';

  async function savedPage(): Promise<{ id: string; savedTab: number; otherTab: number }> {
    await signedIn();
    const savedTab = await tab('https://www.Example.com/read/?utm_source=newsletter#top');
    const otherTab = await tab('https://example.com/other');
    fetchSpy.mockClear();
    const { bookmark } = await send('saveBookmark', { bookmark: { url: SAVED_URL, title: 'Read me', description: '', tags: ['later'], isFavorite: true } });
    if (!bookmark) throw new Error('the save was queued');
    return { id: bookmark.id, savedTab, otherTab };
  }

  it('saveBookmark of a page the index does not know asks the server first, then POSTs; the index gets the normalised URL; tabs showing it get ✓', async () => {
    const { id, savedTab, otherTab } = await savedPage();
    expect(apiCalls()).toEqual(['GET /v1/bookmarks', 'POST /v1/bookmarks']);
    expect(new URL(String(fetchSpy.mock.calls[0]?.[0])).searchParams.get('url')).toBe(SAVED_URL);
    const body = JSON.parse(String(fetchSpy.mock.calls[1]?.[1]?.body)) as unknown;
    expect(body).toMatchObject({ url: SAVED_URL, title: 'Read me', tags: ['later'], isFavorite: true });

    expect((await savedIndexItem.get()).entries).toEqual({ 'example.com/read': id });
    await vi.waitFor(async () => expect(await badge(savedTab)).toBe('✓'));
    expect(await badge(otherTab)).toBe('');
    await settled();
    expect(apiCalls()).toHaveLength(2);
  });

  it('switching tabs makes no request and sets the badge from the index', async () => {
    const { savedTab, otherTab } = await savedPage();
    await settled();
    await fakeBrowser.action.setBadgeText({ tabId: savedTab, text: '' });
    await fakeBrowser.action.setBadgeText({ tabId: otherTab, text: '✓' });
    fetchSpy.mockClear();

    await fakeBrowser.tabs.onActivated.trigger({ tabId: savedTab, windowId: 0 });
    await fakeBrowser.tabs.onActivated.trigger({ tabId: otherTab, windowId: 0 });
    await vi.waitFor(async () => {
      expect(await badge(savedTab)).toBe('✓');
      expect(await badge(otherTab)).toBe('');
    });
    expect(await fakeBrowser.action.getTitle({ tabId: savedTab })).toBe('Shelf: this page is saved');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('looking up a page costs one request: the bookmark the index knows, else a look by URL, which the Save that follows reuses', async () => {
    const { id } = await savedPage();
    await settled();
    fetchSpy.mockClear();
    expect(await send('lookupUrl', { url: 'https://example.com/never-saved' })).toEqual({ bookmark: null, queued: null });
    expect(apiCalls()).toEqual(['GET /v1/bookmarks']);
    expect((await send('lookupUrl', { url: 'http://example.com/read?utm_medium=mail' })).bookmark?.id).toBe(id);
    expect(apiCalls()).toEqual(['GET /v1/bookmarks', `GET /v1/bookmarks/${id}`]);
    await send('saveBookmark', { bookmark: { url: 'https://example.com/never-saved' } });
    expect(apiCalls()).toEqual(['GET /v1/bookmarks', `GET /v1/bookmarks/${id}`, 'POST /v1/bookmarks']);
  });

  it('a popup opened again on an unsaved page shows it by the first one’s look-up, and its Save still reuses it', async () => {
    await savedPage();
    await settled();
    fetchSpy.mockClear();
    for (let opened = 0; opened < 3; opened++) expect(await send('lookupUrl', { url: 'https://example.com/never-saved' })).toEqual({ bookmark: null, queued: null });
    await send('saveBookmark', { bookmark: { url: 'https://example.com/never-saved' } });
    expect(apiCalls()).toEqual(['GET /v1/bookmarks', 'POST /v1/bookmarks']);
  });

  it('trash takes the page out of the index and clears its badge', async () => {
    const { id, savedTab } = await savedPage();
    await vi.waitFor(async () => expect(await badge(savedTab)).toBe('✓'));
    fetchSpy.mockClear();

    const trashed = await send('trashBookmark', { id });
    expect(trashed.deletedAt).not.toBeNull();
    expect(apiCalls()).toEqual([`DELETE /v1/bookmarks/${id}`]);
    expect((await savedIndexItem.get()).entries).toEqual({});
    await vi.waitFor(async () => expect(await badge(savedTab)).toBe(''));
  });

  it('signOut forgets the token, the user, the index and the caches, and clears the badges', async () => {
    const { savedTab } = await savedPage();
    await send('listTags', { refresh: true });
    await send('listCollections', { refresh: true });
    expect(await tagsCacheItem.get()).not.toBeNull();
    expect(await collectionsCacheItem.get()).not.toBeNull();
    await vi.waitFor(async () => expect(await badge(savedTab)).toBe('✓'));

    const state = await send('signOut', {});
    expect(state).toEqual({ serverUrl: t.baseUrl, signedIn: false, tokenProblem: null, user: null, scopes: null });
    expect(await grantItem.get()).toBeNull();
    expect(await tokenItem.get()).toBeNull();
    expect(await userItem.get()).toBeNull();
    expect(await savedIndexItem.get()).toEqual({ entries: {}, syncedAt: null });
    expect(await tagsCacheItem.get()).toBeNull();
    expect(await collectionsCacheItem.get()).toBeNull();
    expect(await badge(savedTab)).toBe('');

    fetchSpy.mockClear();
    expect((await failure(send('saveBookmark', { bookmark: { url: SAVED_URL } }))).code).toBe('NOT_SIGNED_IN');
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe('the account in the background’s memory', () => {
  const ACCOUNT_KEYS = [settingsItem, tokenItem, userItem, grantItem].map((item) => item.key.slice('local:'.length)).concat('tokenProblem');

  /** The keys a storage.local.get call asked for; everything when it named none. */
  const keysRead = (keys: unknown): string[] =>
    keys === null || keys === undefined ? ['(everything)'] : typeof keys === 'string' ? [keys] : Array.isArray(keys) ? keys.map(String) : Object.keys(keys);

  it('once known, the account is not read from storage again for a request', async () => {
    await signedIn();
    const reads = vi.spyOn(fakeBrowser.storage.local, 'get');
    fetchSpy.mockClear();
    await send('findDuplicates', {});
    await send('listCollections', { refresh: true });
    await send('getAccount', {});
    expect(apiCalls()).toEqual(['GET /v1/bookmarks/duplicates', 'GET /v1/collections']);
    const read = reads.mock.calls.flatMap(([keys]) => keysRead(keys));
    expect(read.filter((key) => key === '(everything)' || ACCOUNT_KEYS.includes(key))).toEqual([]);
  });

  it('an account written to storage elsewhere is the one the next request goes with', async () => {
    await signedIn();
    const other = await t.user();
    await other.api('POST', '/collections', { body: { name: 'The other account’s' } });
    await send('listCollections', { refresh: true });

    await tokenItem.set(other.token);
    expect((await send('listCollections', { refresh: true })).map((c) => c.name)).toEqual(['The other account’s']);
    await tokenItem.set(null);
    expect(await send('getAccount', {})).toMatchObject({ signedIn: false });
    expect((await failure(send('listCollections', { refresh: true }))).code).toBe('NOT_SIGNED_IN');
  });
});

describe('who may ask the background', () => {
  /** Delivers a message as from `sender`; answers what came back within a few turns, or 'no answer'. */
  async function from(sender: unknown, message: unknown): Promise<unknown> {
    let answer: unknown = 'no answer';
    void deliver(message, sender, (reply) => (answer = reply));
    await settled();
    return answer;
  }

  it('answers only its own pages: a content script, another extension and a web page get nothing, and nothing is done', async () => {
    const u = await signedIn();
    fetchSpy.mockClear();
    const strangers = [
      { id: fakeBrowser.runtime.id, url: 'https://evil.example/page', tab: { id: 7 }, frameId: 0 }, // a content script of ours, on a web page
      { id: 'another-extension-id', url: 'chrome-extension://another-extension-id/page.html' },
      { id: 'another-extension-id', url: fakeBrowser.runtime.getURL('/popup.html') }, // another extension naming our page
      { id: fakeBrowser.runtime.id, url: `${fakeBrowser.runtime.getURL('/')}`.replace(fakeBrowser.runtime.id, 'another-extension-id') },
      { url: 'https://evil.example/', origin: 'https://evil.example' }, // a web page
      { id: fakeBrowser.runtime.id }, // no page at all
      undefined,
    ];
    for (const sender of strangers) {
      expect(await from(sender, { name: 'getAccount', input: {} })).toBe('no answer');
      expect(await from(sender, { name: 'saveBookmark', input: { bookmark: { url: 'https://evil.example/planted' } } })).toBe('no answer');
      expect(await from(sender, { name: 'signOut', input: {} })).toBe('no answer');
    }
    expect(apiCalls()).toEqual([]);
    expect(await tokenItem.get()).toBe(u.token);
    // The same message from its own page is answered.
    expect(await from(OWN_PAGE(), { name: 'getAccount', input: {} })).toMatchObject({ ok: true, data: { signedIn: true } });
  });

  it('never puts the token in sync storage, a log, an error or any answer, whatever goes wrong', async () => {
    const logged: unknown[][] = [];
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, level).mockImplementation((...args) => void logged.push(args));
    const u = await signedIn();
    const answers: unknown[] = [];
    const ask = async (message: unknown) => answers.push(await from(OWN_PAGE(), message));

    await ask({ name: 'saveBookmark', input: { bookmark: { url: 'https://example.com/one' } } });
    await ask({ name: 'saveBookmark', input: { bookmark: { url: 'not a url' } } });
    await t.server.deps.store.accounts.revokeToken(u.tokenId, t.server.deps.clock.now());
    await ask({ name: 'listTags', input: { refresh: true } });
    await ask({ name: 'saveBookmark', input: { bookmark: { url: 'https://example.com/two' } } });
    await ask({ name: 'lookupUrl', input: { url: 'https://example.com/one' } });
    await ask({ name: 'getAccount', input: {} });
    await ask({ name: 'signIn', input: { serverUrl: `127.0.0.1:${await closedPort()}`, token: u.token } });
    await settled();

    expect(answers).toHaveLength(7);
    expect(JSON.stringify(answers)).not.toContain(u.token);
    expect(JSON.stringify(logged.map((args) => args.map(String)))).not.toContain(u.token.slice(4));
    expect(await fakeBrowser.storage.sync.get(null)).toEqual({});
    const local = await fakeBrowser.storage.local.get(null);
    const { token, ...rest } = local;
    expect(token).toBe(u.token);
    expect(JSON.stringify(rest)).not.toContain(u.token.slice(4));
  });
});
