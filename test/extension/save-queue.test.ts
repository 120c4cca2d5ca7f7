// @vitest-environment node
// Node's transform and fetch, as in a background service worker (see ./support/dom.ts).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { ClientError } from '../../lib/client/errors.ts';
import { libraryReplies } from '../../lib/messaging/library-replies.ts';
import type { MessageOutput } from '../../lib/messaging/protocol.ts';
import { sendMessage } from '../../lib/messaging/transport.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { saveQueueItem, tokenProblemItem } from '../../lib/storage/background-items.ts';
import { type Fault, type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground } from './support/background.ts';

const MINUTE = 60_000;
const URL_A = 'https://queue.example/a';

let t: TestServer;
let proxy: FaultProxy;
let bg: TestBackground;
let u: TestUser;

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
  proxy.fault = 'pass';
  proxy.requests.length = 0;
  bg = createTestBackground();
  u = await t.user();
  await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: u.token });
  await bg.idle();
  proxy.requests.length = 0;
});
afterEach(() => bg.idle());

const save = (url: string, title: string) => bg.handlers.saveBookmark({ bookmark: { url, title } });

function queuedOf(answer: MessageOutput<'saveBookmark'>) {
  if (answer.bookmark || !answer.queued) throw new Error(`saved at once: ${answer.bookmark?.id}`);
  return answer.queued;
}

/** Every bookmark the server holds for a URL, straight from the server. */
async function onServer(url: string, of: TestUser = u): Promise<Bookmark[]> {
  const { body } = await of.api('GET', '/bookmarks?limit=200');
  return (body as { data: { data: Bookmark[] } }).data.data.filter((b) => b.url === url);
}

/** Another token of the same user, as signing in again after token trouble brings. */
async function secondToken(of: TestUser): Promise<string> {
  const { token } = await issueToken(t.server.deps.store.accounts, { userId: of.userId, name: 'again', scopes: ['bookmarks:read', 'bookmarks:write'], expiresAt: null }, Date.now());
  return token;
}

async function iconTitle(): Promise<string> {
  const tab = await fakeBrowser.tabs.create({ url: 'https://elsewhere.example/' });
  await bg.services.icon.refreshAll();
  return fakeBrowser.action.getTitle({ tabId: tab.id! });
}

async function badge(): Promise<string> {
  const tab = await fakeBrowser.tabs.create({ url: 'https://elsewhere.example/' });
  await bg.services.icon.refreshAll();
  return fakeBrowser.action.getBadgeText({ tabId: tab.id! });
}

const posts = () => proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/bookmarks');

describe('the save queue', () => {
  it.each<[string, Fault]>([
    ['the server is down', 'down'],
    ['the server fails with a 500', 'error500'],
    ['the server cannot reach its database or Redis (503)', { status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: 5 }],
    // Longer than a user waits (15 s): the save is queued, and the queue waits it out.
    ['the gateway asks to wait (429)', { status: 429, code: 'RATE_LIMITED', retryAfter: 16 }],
  ])('keeps a save when %s, shows it, and saves it exactly once when the server is back', { timeout: 45_000 }, async (_, fault) => {
    proxy.fault = fault;
    const queued = queuedOf(await save(URL_A, 'Kept'));
    expect(queued).toMatchObject({ body: { url: URL_A, title: 'Kept' }, refused: false, waiting: 1 });
    expect(await badge()).toBe('1');
    expect((await bg.handlers.lookupUrl({ url: URL_A })).queued).toMatchObject({ body: { title: 'Kept' }, refused: false });

    proxy.fault = 'pass';
    await bg.services.queue.drain(true);
    expect(await saveQueueItem.get()).toEqual([]);
    expect(await onServer(URL_A)).toHaveLength(1);
    expect(await badge()).toBe('');
    expect((await bg.handlers.lookupUrl({ url: URL_A })).queued).toBeNull();
  });

  it.each<[string, Fault]>([
    ['the connection drops after the server committed', 'dropAfterCommit'],
    ['the answer is not JSON', 'malformed'],
  ])('when %s, the retry finds the bookmark made and makes no second one', async (_, fault) => {
    // The popup asked at opening whether the page is saved: its Save goes straight to the POST.
    expect((await bg.handlers.lookupUrl({ url: URL_A })).bookmark).toBeNull();
    proxy.fault = fault;
    queuedOf(await save(URL_A, 'Once'));
    expect(await onServer(URL_A)).toHaveLength(1); // made, though the extension does not know it

    proxy.fault = 'pass';
    await bg.services.queue.drain(true);
    expect(posts()).toHaveLength(1);
    expect(await onServer(URL_A)).toHaveLength(1);
    expect(await saveQueueItem.get()).toEqual([]);
    expect((await bg.handlers.lookupUrl({ url: URL_A })).bookmark?.title).toBe('Once');
  });

  it('survives a restart of the background: a new one finds the queue in storage and sends it', async () => {
    proxy.fault = 'down';
    queuedOf(await save(URL_A, 'Before the restart'));
    queuedOf(await save('https://queue.example/b', 'Another'));
    proxy.fault = 'pass';

    const restarted = createTestBackground();
    await restarted.services.queue.drain(true);
    expect(await saveQueueItem.get()).toEqual([]);
    expect(await onServer(URL_A)).toHaveLength(1);
    expect(await onServer('https://queue.example/b')).toHaveLength(1);
  });

  it('an edit of a waiting save changes the waiting request: the server gets the edited one', async () => {
    proxy.fault = 'down';
    queuedOf(await save(URL_A, 'First title'));
    const edited = queuedOf(await bg.handlers.saveBookmark({ bookmark: { url: URL_A, title: 'Edited', tags: ['later'] } }));
    expect(edited).toMatchObject({ body: { title: 'Edited', tags: ['later'] }, waiting: 1 });
    expect(await saveQueueItem.get()).toHaveLength(1);

    proxy.fault = 'pass';
    await bg.services.queue.drain(true);
    const [saved] = await onServer(URL_A);
    expect(saved).toMatchObject({ title: 'Edited', tags: ['later'] });
    expect(await onServer(URL_A)).toHaveLength(1);
  });

  it('keeps backing off: a save not due yet waits for its time, not for every alarm', async () => {
    proxy.fault = 'down';
    queuedOf(await save(URL_A, 'Later'));
    proxy.requests.length = 0;
    await bg.services.queue.drain(false);
    expect(proxy.requests).toHaveLength(0);
    const [waiting] = await saveQueueItem.get();
    expect(waiting!.nextAttemptAt).toBeGreaterThan(Date.now() + 10_000);
  });

  it('a save refused for good is kept with its reason, shown, and not sent again by itself', async () => {
    proxy.fault = 'down';
    queuedOf(await save(URL_A, 'Refused later'));
    proxy.fault = { status: 400, code: 'VALIDATION_ERROR' };
    await bg.services.queue.drain(true);
    const [kept] = await saveQueueItem.get();
    expect(kept).toMatchObject({ refused: true, error: { code: 'VALIDATION_ERROR', message: 'injected VALIDATION_ERROR' } });
    expect((await bg.handlers.lookupUrl({ url: URL_A })).queued).toMatchObject({ refused: true, waiting: 0, error: { code: 'VALIDATION_ERROR' } });
    expect(await badge()).toBe('!');

    proxy.fault = 'pass';
    proxy.requests.length = 0;
    await bg.services.queue.drain(true);
    expect(proxy.requests).toHaveLength(0);
    // Saving it again from the popup is the user's retry: it goes, and the kept one goes with it.
    const answer = await save(URL_A, 'Refused later');
    expect(answer.queued).toBeNull();
    expect(await saveQueueItem.get()).toEqual([]);
  });

  it('a popup save refused for good answers its error at once and queues nothing', async () => {
    proxy.fault = { status: 400, code: 'VALIDATION_ERROR' };
    await expect(save(URL_A, 'Bad')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await saveQueueItem.get()).toEqual([]);
  });
});

describe('token trouble', () => {
  it.each(['TOKEN_REVOKED', 'TOKEN_EXPIRED', 'INVALID_TOKEN'])('on %s every call stops at once, the queue waits, and goes on after a new sign-in', async (code) => {
    proxy.fault = 'down';
    queuedOf(await save(URL_A, 'Waits for sign-in'));
    proxy.fault = { status: 401, code };
    queuedOf(await save('https://queue.example/b', 'Refused token'));
    expect(await tokenProblemItem.get()).toMatchObject({ code });
    expect((await bg.handlers.getAccount({})).tokenProblem).toMatchObject({ code });

    // Nothing more is sent with that token: not the queue, not a lookup, not a save.
    proxy.fault = 'pass';
    proxy.requests.length = 0;
    await bg.services.queue.drain(true);
    const third = queuedOf(await save('https://queue.example/c', 'Third'));
    expect(third.error?.code).toBe(code);
    await expect(bg.handlers.listTags({ refresh: true })).rejects.toMatchObject({ code });
    expect(proxy.requests).toHaveLength(0);
    expect(await saveQueueItem.get()).toHaveLength(3);

    // The same account signs in again, with a new token: the queue resumes.
    await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: await secondToken(u) });
    await bg.idle();
    await bg.services.queue.drain(true);
    expect(await saveQueueItem.get()).toEqual([]);
    expect(await tokenProblemItem.get()).toBeNull();
    const { body } = await u.api('GET', '/bookmarks?limit=10');
    expect((body as { data: { data: Bookmark[] } }).data.data.map((b) => b.url).sort()).toEqual([URL_A, 'https://queue.example/b', 'https://queue.example/c']);
  });

  it.each(['SCOPE_REQUIRED', 'API_ACCESS_PRO_REQUIRED'])('on %s nothing is retried or queued', async (code) => {
    proxy.fault = { status: 403, code };
    const error = (await save(URL_A, 'No').catch((err: unknown) => err)) as ClientError;
    expect(error).toBeInstanceOf(ClientError);
    expect(error.code).toBe(code);
    // The look by URL that comes before a POST met the refusal: nothing further was sent.
    expect(proxy.requests).toHaveLength(1);
    expect(await saveQueueItem.get()).toEqual([]);
  });
});

describe('saves belong to the account that queued them', () => {
  /** Two saves of `u` wait in the queue, then `u` signs out. */
  async function queueAndSignOut(): Promise<void> {
    proxy.fault = 'down';
    queuedOf(await save(URL_A, 'Mine'));
    queuedOf(await save('https://queue.example/b', 'Also mine'));
    proxy.fault = 'pass';
    await bg.handlers.signOut({});
    proxy.requests.length = 0;
  }

  it('after a sign-out they are held: a different account that signs in never sends them, and sees them held for theirs', async () => {
    await queueAndSignOut();
    expect(await bg.handlers.heldSaves({})).toEqual([{ owner: { serverUrl: proxy.baseUrl, userId: u.userId, email: 'test@example.com' }, count: 2 }]);
    expect(await iconTitle()).toContain('2 waiting for test@example.com (sign in as that account to send them)');

    const other = await t.user();
    await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: other.token });
    await bg.idle();
    await bg.services.queue.drain(true);
    expect(posts()).toHaveLength(0);
    expect(await onServer(URL_A, other)).toEqual([]);
    // Nothing of theirs shows as this account's: not the badge, not the page's state in the popup.
    expect(await badge()).toBe('');
    expect((await bg.handlers.lookupUrl({ url: URL_A })).queued).toBeNull();
    expect(await bg.handlers.heldSaves({})).toMatchObject([{ owner: { userId: u.userId }, count: 2 }]);

    // The new account's own save of the same page goes as its own, and leaves the held one be.
    proxy.fault = 'down';
    expect(queuedOf(await save(URL_A, 'Theirs'))).toMatchObject({ body: { title: 'Theirs' }, waiting: 1 });
    proxy.fault = 'pass';
    await bg.services.queue.drain(true);
    expect((await onServer(URL_A, other)).map((b) => b.title)).toEqual(['Theirs']);
    expect((await saveQueueItem.get()).map((s) => [s.owner.userId, s.body.title])).toEqual([
      [u.userId, 'Mine'],
      [u.userId, 'Also mine'],
    ]);

    // Back as the first account: its saves go, each once, as its own.
    await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: u.token });
    await bg.idle();
    await bg.services.queue.drain(true);
    expect(await saveQueueItem.get()).toEqual([]);
    expect((await onServer(URL_A)).map((b) => b.title)).toEqual(['Mine']);
    expect(await onServer('https://queue.example/b')).toHaveLength(1);
    expect(await onServer('https://queue.example/b', other)).toEqual([]);
    expect(await bg.handlers.heldSaves({})).toEqual([]);
  });

  it('the same user at another server address is another account: its saves are held, not sent there', async () => {
    await queueAndSignOut();
    // The same server reached without the proxy: the same user id, another server URL.
    await bg.handlers.signIn({ serverUrl: t.baseUrl, token: u.token });
    await bg.idle();
    await bg.services.queue.drain(true);
    expect(await onServer(URL_A)).toEqual([]);
    expect(await bg.handlers.heldSaves({})).toMatchObject([{ owner: { serverUrl: proxy.baseUrl, userId: u.userId }, count: 2 }]);
  });

  it('a sign-in as another account without signing out first holds them all the same', async () => {
    proxy.fault = 'down';
    queuedOf(await save(URL_A, 'Mine'));
    proxy.fault = 'pass';
    const other = await t.user();
    await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: other.token });
    await bg.idle();
    await bg.services.queue.drain(true);
    expect(await onServer(URL_A, other)).toEqual([]);
    expect(await bg.handlers.heldSaves({})).toMatchObject([{ owner: { userId: u.userId }, count: 1 }]);
  });

  it('the user may discard the saves held for an account; the signed-in account’s own are not touched that way', async () => {
    await queueAndSignOut();
    const other = await t.user();
    await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: other.token });
    await bg.idle();
    proxy.fault = 'down';
    queuedOf(await save('https://queue.example/c', 'Theirs'));

    // Their own account named: nothing goes.
    expect(await bg.handlers.discardHeldSaves({ serverUrl: proxy.baseUrl, userId: other.userId })).toMatchObject([{ owner: { userId: u.userId }, count: 2 }]);
    expect(await saveQueueItem.get()).toHaveLength(3);
    expect(await bg.handlers.discardHeldSaves({ serverUrl: proxy.baseUrl, userId: u.userId })).toEqual([]);
    expect((await saveQueueItem.get()).map((s) => s.body.title)).toEqual(['Theirs']);

    // Discarded means never sent, even when that account signs in again.
    proxy.fault = 'pass';
    await bg.handlers.signIn({ serverUrl: proxy.baseUrl, token: u.token });
    await bg.idle();
    await bg.services.queue.drain(true);
    expect(await onServer(URL_A)).toEqual([]);
  });

  it('a message to discard names a real account: anything else is refused and changes nothing', async () => {
    await queueAndSignOut();
    const send = (input: { serverUrl: string; userId: string }) => sendMessage(bg.runtime, libraryReplies, 'discardHeldSaves', input);
    await expect(send({ serverUrl: '', userId: u.userId })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('serverUrl') });
    await expect(send({ serverUrl: proxy.baseUrl, userId: '' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('userId') });
    expect(await saveQueueItem.get()).toHaveLength(2);
  });
});
