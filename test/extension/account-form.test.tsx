// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import { closeDom } from './support/dom.ts';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { type UserEvent, userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { VerifiedUser } from '../../lib/api/auth.ts';
import type { ClientErrorCode } from '../../lib/client/errors.ts';
import { describeError } from '../../lib/client/user-text.ts';
import { DEFAULT_SERVER_URL } from '../../lib/messaging/protocol.ts';
import { tokenItem } from '../../lib/storage/items.ts';
import { PANEL_PAINT_KEY } from '../../lib/storage/panel-paint.ts';
import { indexSyncItem, saveQueueItem } from '../../lib/storage/background-items.ts';
import { setRuntime } from '../../components/messenger.ts';
import { App } from '../../entrypoints/options/App.tsx';
import { dataOf } from '../support/expect.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { type TestBackground, createTestBackground } from './support/background.ts';
import { ShiftedClock } from '../support/manual-clock.ts';
import { closedPort, startFakeServer } from './support/network.ts';

const MINUTE = 60_000;
const BAD_TOKEN = `tok_${'0'.repeat(64)}`;

let t: TestServer;
let bg: TestBackground;
/** The background's clock, moved with the server's. */
let clock: ShiftedClock;
let user: UserEvent;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
  await closeDom();
});

beforeEach(async () => {
  fakeBrowser.reset();
  clock = new ShiftedClock();
  bg = createTestBackground({ clock });
  setRuntime(bg.runtime);
  user = userEvent.setup();
  // The browser's answer for access the manifest grants and the user has not taken back: yes, with no prompt.
  vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
  // Every request of the background comes from 127.0.0.1: each test starts past the previous one's
  // failed-sign-in window (5 minutes) and gateway minute.
  await t.advance(6 * MINUTE);
});
afterEach(async () => {
  await bg.idle();
  cleanup();
  vi.restoreAllMocks();
});

const serverField = () => screen.findByRole<HTMLInputElement>('textbox', { name: 'Server URL' });
const tokenField = () => screen.getByLabelText<HTMLInputElement>('API token');

async function submitSignIn(serverUrl: string, token: string): Promise<void> {
  const server = await serverField();
  await user.clear(server);
  await user.type(server, serverUrl);
  await user.clear(tokenField());
  await user.type(tokenField(), token);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

/** The alert shows describeError's words for the code, and the button is usable again. */
async function expectFailure(code: ClientErrorCode, retryAfterSeconds?: number): Promise<void> {
  const text = describeError({ code, message: '', retryAfterSeconds });
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain(text.title);
  if (code !== 'VALIDATION_ERROR') expect(alert.textContent).toContain(text.action);
  expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false);
}

async function expectSignedOut(): Promise<void> {
  expect(await tokenItem.get()).toBeNull();
  expect((await bg.handlers.getAccount({})).signedIn).toBe(false);
  expect(screen.queryByRole('heading', { name: 'Signed in' })).toBeNull();
}

/** The definition list of the summary, as term → description. */
function summary(): Record<string, string> {
  const list = screen.getByRole('region', { name: 'Signed in' }).querySelector('dl');
  if (!list) throw new Error('no definition list');
  const terms = [...list.querySelectorAll('dt')].map((dt) => dt.textContent ?? '');
  const values = [...list.querySelectorAll('dd')].map((dd) => dd.textContent ?? '');
  return Object.fromEntries(terms.map((term, i) => [term, values[i] ?? '']));
}

async function verifiedUser(u: TestUser): Promise<VerifiedUser> {
  return dataOf(await u.api('POST', '/auth/verify'), VerifiedUser);
}

/** Signed in as a new user whose token the server has then revoked (and the background has met the refusal). */
async function revokedAccount(): Promise<TestUser> {
  const u = await t.user();
  await bg.handlers.signIn({ serverUrl: t.baseUrl, token: u.token });
  await bg.idle();
  await t.server.deps.store.accounts.revokeToken(u.tokenId, t.server.deps.clock.now());
  await expect(bg.handlers.listTags({ refresh: true })).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
  return u;
}

describe('options page', () => {
  it('has the title, the Account section in its navigation, and the form with the default server', async () => {
    render(<App />);
    expect(screen.getByRole('heading', { level: 1, name: 'Shelf options' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Options sections' });
    expect(within(nav).getByRole('link', { name: 'Account' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('region', { name: 'Account' })).toBeTruthy();

    expect(((await serverField()) as HTMLInputElement).value).toBe(DEFAULT_SERVER_URL);
    const token = tokenField();
    expect(token.type).toBe('password');
    expect(token.autocomplete).toBe('off');
    expect(token.placeholder).toBe('tok_…');
    expect(token.value).toBe('');
  });

  it('shows and hides the token with the Show token toggle', async () => {
    render(<App />);
    await serverField();
    await user.type(tokenField(), 'tok_secret');
    const toggle = screen.getByRole('button', { name: 'Show token' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await user.click(toggle);
    expect(tokenField().type).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    await user.click(toggle);
    expect(tokenField().type).toBe('password');
    expect(tokenField().value).toBe('tok_secret');
  });

  it('can be filled and sent with the keyboard alone', async () => {
    const u = await t.user();
    render(<App />);
    const server = await serverField();
    // The header's way to the library page first, then the sections.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: /Open library/ }));
    await user.tab();
    const sections = within(screen.getByRole('navigation', { name: 'Options sections' })).getAllByRole('link');
    expect(document.activeElement).toBe(sections[0]);
    // Past the other sections' links, to the form.
    for (let i = 0; i < sections.length; i++) await user.tab();
    expect(document.activeElement).toBe(server);
    await user.keyboard('{Control>}a{/Control}{Backspace}');
    await user.keyboard(t.baseUrl);
    await user.tab();
    expect(document.activeElement).toBe(tokenField());
    await user.keyboard(u.token);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Show token' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sign in' }));
    await user.keyboard('{Enter}');
    const heading = await screen.findByRole('heading', { name: 'Signed in' });
    // The summary takes the focus, so that the keyboard carries on from it (in its effect, just after it shows).
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });
});

describe('signing in', () => {
  it('signs in with host:port, shows who is signed in where, and keeps the token in local storage', async () => {
    const u = await t.user();
    const expected = await verifiedUser(u);
    render(<App />);
    await submitSignIn(t.baseUrl.replace(/^http:\/\//, '').replace(/\/v1$/, ''), u.token);

    await screen.findByRole('heading', { name: 'Signed in' });
    expect(summary()).toEqual({
      Name: 'Test user',
      Email: 'test@example.com',
      Plan: expected.plan,
      Status: expected.status,
      Server: t.baseUrl,
    });
    expect(expected.plan).toBe('pro');
    expect(await tokenItem.get()).toBe(u.token);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('disables the button and shows progress until the background answers', async () => {
    const u = await t.user();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    setRuntime({
      ...bg.runtime,
      sendMessage: async (message) => {
        if ((message as { name?: string }).name === 'signIn') await held;
        return bg.runtime.sendMessage(message);
      },
    });
    render(<App />);
    await submitSignIn(t.baseUrl, u.token);

    const busy = screen.getByRole('button', { name: 'Signing in…' });
    expect(busy).toHaveProperty('disabled', true);
    await user.click(busy); // a second press sends nothing more
    expect(bg.requests).toHaveLength(0);

    await act(async () => release());
    await screen.findByRole('heading', { name: 'Signed in' });
    // One sign-in: the user (POST) and what the token may do (GET), once each.
    expect(bg.requests.filter((r) => r.url.endsWith('/auth/verify')).map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it('signs out: the token is forgotten, the server kept, the token field empty, the side panel’s last paint gone', async () => {
    const u = await t.user();
    render(<App />);
    await submitSignIn(t.baseUrl, u.token);
    await screen.findByRole('heading', { name: 'Signed in' });
    localStorage.setItem(PANEL_PAINT_KEY, '{"html":"<p>the account’s first rows</p>"}');

    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(localStorage.getItem(PANEL_PAINT_KEY)).toBeNull());

    const server = (await serverField()) as HTMLInputElement;
    expect(server.value).toBe(t.baseUrl);
    expect(tokenField().value).toBe('');
    expect(document.activeElement).toBe(tokenField());
    await expectSignedOut();
  });

  it('shows the account already signed in when the page opens', async () => {
    const u = await t.user();
    await bg.handlers.signIn({ serverUrl: t.baseUrl, token: u.token });
    render(<App />);
    await screen.findByRole('heading', { name: 'Signed in' });
    expect(summary()).toMatchObject({ Name: 'Test user', Server: t.baseUrl });
    expect(screen.queryByLabelText('API token')).toBeNull();
  });

  it('shows how far the saved-page sync has come, live', async () => {
    const u = await t.user();
    for (const i of [1, 2, 3]) await u.api('POST', '/bookmarks', { body: { url: `https://sync.example/${i}`, description: '' } });
    await bg.handlers.signIn({ serverUrl: t.baseUrl, token: u.token });
    await bg.idle();
    await indexSyncItem.set({ full: true, fetched: 200, total: 450, requests: 2, running: true });
    render(<App />);
    expect((await screen.findByText(/Syncing saved pages/)).textContent).toBe('Syncing saved pages: 200 of 450');
    expect(screen.getByRole('progressbar', { name: 'Saved-page sync' })).toHaveProperty('value', 200);
    await bg.services.index.sync({ full: true });
    expect((await screen.findByText(/Saved pages synced/)).textContent).toBe('Saved pages synced: 3.');
  });

  it('shows the saves another account queued, held for it, and lets the user discard them after a confirmation', async () => {
    const [a, b] = [await t.user(), await t.user()];
    await bg.handlers.signIn({ serverUrl: t.baseUrl, token: a.token });
    await bg.idle();
    // What a save of `a` that the server could not take leaves in the queue.
    const owner = { serverUrl: t.baseUrl, userId: a.userId, email: 'test@example.com' };
    const waiting = { owner, queuedAt: 0, attempts: 1, nextAttemptAt: 0, error: { code: 'NETWORK_ERROR' as const, message: 'down' }, refused: false };
    await saveQueueItem.set([
      { ...waiting, key: 'k1', body: { url: 'https://held.example/1' } },
      { ...waiting, key: 'k2', body: { url: 'https://held.example/2' } },
    ]);
    render(<App />);
    await screen.findByRole('heading', { name: 'Signed in' });
    // Its own saves are not held: they go with its token.
    expect(screen.queryByRole('region', { name: 'Saves waiting for another account' })).toBeNull();

    await bg.handlers.signIn({ serverUrl: t.baseUrl, token: b.token });
    const held = await screen.findByRole('region', { name: 'Saves waiting for another account' });
    expect(held.textContent).toContain(`2 saves waiting for test@example.com at ${t.baseUrl}. Sign in as that account to send them.`);

    await user.click(within(held).getByRole('button', { name: 'Discard saves for test@example.com' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Discard 2 saves for test@example.com?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await saveQueueItem.get()).toHaveLength(2);

    await user.click(within(held).getByRole('button', { name: 'Discard saves for test@example.com' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Discard saves' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Saves waiting for another account' })).toBeNull());
    expect(await saveQueueItem.get()).toEqual([]);
  });

  it('opens the sign-in form at once when the server has refused the token, and signing in clears it', async () => {
    await revokedAccount();
    render(<App />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(describeError({ code: 'TOKEN_REVOKED', message: '', retryAfterSeconds: undefined }).title);
    expect(screen.getByText(/Shelf has stopped using this token/)).toBeTruthy();
    // The form is there with the server filled in; the page load alone moves no focus.
    expect((await serverField()).value).toBe(t.baseUrl);
    expect(tokenField().value).toBe('');
    expect(document.activeElement).not.toBe(tokenField());

    const next = await t.user();
    await submitSignIn(t.baseUrl, next.token);
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Change server or token' })).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    expect((await bg.handlers.getAccount({})).tokenProblem).toBeNull();
  });
});

describe('signing in again, as the popup and the side panel open it (options.html?sign-in#account)', () => {
  afterEach(() => window.history.replaceState(null, '', '/options.html'));

  it('shows the form with the server filled in and the token field empty and focused, with the admin command for this user', async () => {
    const u = await revokedAccount();
    window.history.replaceState(null, '', '/options.html?sign-in#account');
    render(<App />);
    await waitFor(() => expect(document.activeElement).toBe(tokenField()));
    expect(tokenField().value).toBe('');
    expect((await serverField()).value).toBe(t.baseUrl);
    // A local server has no token settings: the hint is the admin command, naming this account.
    const hint = document.getElementById(tokenField().getAttribute('aria-describedby') ?? '');
    expect(hint?.querySelector('code')?.textContent).toBe(`npm run --silent admin -- --data DIR token create --user ${u.userId} --name Shelf --scopes all`);
  });

  it('focuses the token field of a signed-out account too', async () => {
    window.history.replaceState(null, '', '/options.html?sign-in#account');
    render(<App />);
    await waitFor(() => expect(document.activeElement).toBe(tokenField()));
  });

  it('points to the API Tokens settings of a server that is not local', async () => {
    render(<App />);
    const server = await serverField();
    const hint = () => document.getElementById(tokenField().getAttribute('aria-describedby') ?? '')?.textContent;
    expect(hint()).toContain('npm run --silent admin -- --data DIR token create --user USER_ID');
    await user.clear(server);
    await user.type(server, 'https://bookmarks.example.com/v1');
    expect(hint()).toContain('Create one in the API Tokens settings of your account on bookmarks.example.com.');
    expect(hint()).not.toContain('npm run');
  });
});

describe('sign-in failures, each in its own words', () => {
  it('an invalid token', async () => {
    render(<App />);
    await submitSignIn(t.baseUrl, BAD_TOKEN);
    await expectFailure('INVALID_TOKEN');
    await expectSignedOut();
  });

  it('a revoked token', async () => {
    const u = await t.user();
    await t.server.deps.store.accounts.revokeToken(u.tokenId, t.server.deps.clock.now());
    render(<App />);
    await submitSignIn(t.baseUrl, u.token);
    await expectFailure('TOKEN_REVOKED');
    await expectSignedOut();
  });

  it('an expired token', async () => {
    const u = await t.user({ expiresAt: t.server.deps.clock.now() + MINUTE });
    await t.advance(2 * MINUTE);
    render(<App />);
    await submitSignIn(t.baseUrl, u.token);
    await expectFailure('TOKEN_EXPIRED');
    await expectSignedOut();
  });

  it('a free-plan account', async () => {
    const u = await t.user({ plan: 'free' });
    render(<App />);
    await submitSignIn(t.baseUrl, u.token);
    await expectFailure('API_ACCESS_PRO_REQUIRED');
    expect((await screen.findByRole('alert')).textContent).toMatch(/Pro plan/);
    await expectSignedOut();
  });

  it('a server that cannot be reached', async () => {
    const u = await t.user();
    render(<App />);
    await submitSignIn(`http://127.0.0.1:${await closedPort()}`, u.token);
    await expectFailure('NETWORK_ERROR');
    await expectSignedOut();
  });

  it('a server that is not a Bookmark Library API', async () => {
    const junk = await startFakeServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<h1>My blog</h1>'));
    try {
      render(<App />);
      await submitSignIn(junk.baseUrl, BAD_TOKEN);
      await expectFailure('MALFORMED_RESPONSE');
      await expectSignedOut();
    } finally {
      await junk.close();
    }
  });

  it('an address that is not one', async () => {
    render(<App />);
    await submitSignIn('ftp://files.example.com', BAD_TOKEN);
    await expectFailure('VALIDATION_ERROR');
    expect(bg.requests).toHaveLength(0);
  });

  it('an IP block after five failed sign-ins, with the time left', async () => {
    // A server of its own: the five failures block 127.0.0.1, where every request of the background comes from.
    const fresh = await startTestServer();
    try {
      const u = await fresh.user();
      render(<App />);
      for (let attempt = 1; attempt <= 5; attempt++) {
        await submitSignIn(fresh.baseUrl, BAD_TOKEN);
        await expectFailure('INVALID_TOKEN');
      }
      // Blocked now, even with a valid token; the block lasts 15 minutes.
      await submitSignIn(fresh.baseUrl, u.token);
      await expectFailure('IP_BLOCKED', 15 * 60);
      expect((await screen.findByRole('alert')).textContent).toContain('Try again in 15 minutes');

      await fresh.advance(10 * MINUTE);
      clock.advance(10 * MINUTE);
      await submitSignIn(fresh.baseUrl, u.token);
      await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Try again in 5 minutes'));
      await expectSignedOut();
    } finally {
      await fresh.close();
    }
  });

  it('keeps the previous account signed in when another token fails', async () => {
    const first = await t.user();
    render(<App />);
    await submitSignIn(t.baseUrl, first.token);
    await screen.findByRole('heading', { name: 'Signed in' });

    await user.click(screen.getByRole('button', { name: 'Change server or token' }));
    expect(document.activeElement).toBe(tokenField());
    await submitSignIn(t.baseUrl, BAD_TOKEN);
    await expectFailure('INVALID_TOKEN');

    expect(screen.getByRole('heading', { name: 'Signed in' })).toBeTruthy();
    expect(await tokenItem.get()).toBe(first.token);
    const state = await bg.handlers.getAccount({});
    expect(state).toMatchObject({ signedIn: true, user: { userId: first.userId } });

    // And a good token then replaces it.
    const second = await t.user();
    await submitSignIn(t.baseUrl, second.token);
    await waitFor(() => expect(screen.queryByLabelText('API token')).toBeNull());
    expect(await tokenItem.get()).toBe(second.token);
    expect((await bg.handlers.getAccount({})).user?.userId).toBe(second.userId);
  });

  it('closes the token form with Escape, leaving the account as it was', async () => {
    const u = await t.user();
    await bg.handlers.signIn({ serverUrl: t.baseUrl, token: u.token });
    render(<App />);
    await user.click(await screen.findByRole('button', { name: 'Change server or token' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByLabelText('API token')).toBeNull();
    expect(await tokenItem.get()).toBe(u.token);
  });
});

describe('servers other than the local one', () => {
  it('asks for access in the click, and stops with a clear message when it is refused', async () => {
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(false);
    render(<App />);
    await submitSignIn('https://bookmarks.example.com', BAD_TOKEN);
    await expectFailure('PERMISSION_DENIED');
    expect(request).toHaveBeenCalledWith({ origins: ['https://bookmarks.example.com/*'] });
    expect(bg.requests).toHaveLength(0);
    await expectSignedOut();
  });

  it('uses https for a name typed without a scheme, and sends a token over plain http elsewhere only once the user agrees', async () => {
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(false);
    render(<App />);
    await submitSignIn('bookmarks.example.com', BAD_TOKEN);
    await expectFailure('PERMISSION_DENIED');
    expect(request).toHaveBeenLastCalledWith({ origins: ['https://bookmarks.example.com/*'] });

    await submitSignIn('http://bookmarks.example.com', BAD_TOKEN);
    await expectFailure('INSECURE_SERVER');
    expect(request).toHaveBeenCalledTimes(1);
    const agree = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Send my token unencrypted' });
    expect(agree.checked).toBe(false);
    await user.click(agree);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await expectFailure('PERMISSION_DENIED');
    expect(request).toHaveBeenLastCalledWith({ origins: ['http://bookmarks.example.com/*'] });
    expect(bg.requests).toHaveLength(0);
    // The background checks it too: a page cannot skip the question.
    await expect(bg.handlers.signIn({ serverUrl: 'http://bookmarks.example.com', token: BAD_TOKEN })).rejects.toMatchObject({ code: 'INSECURE_SERVER' });
  });

  it('signs in once access is granted', async () => {
    // 127.0.0.2 is this computer too, but not an origin the manifest grants.
    const other = await startTestServer({ host: '127.0.0.2' });
    try {
      const u = await other.user();
      const request = vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
      render(<App />);
      await submitSignIn(other.baseUrl, u.token);
      await screen.findByRole('heading', { name: 'Signed in' });
      expect(request).toHaveBeenCalledWith({ origins: [`${new URL(other.baseUrl).origin}/*`] });
      expect(summary().Server).toBe(other.baseUrl);
      await bg.idle();
    } finally {
      await other.close();
    }
  });

  it('asks for the local server too, by the manifest’s any-port pattern (Firefox grants it optionally and it can be revoked)', async () => {
    const u = await t.user();
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
    render(<App />);
    await submitSignIn(t.baseUrl.replace('127.0.0.1', 'localhost'), u.token);
    await screen.findByRole('heading', { name: 'Signed in' });
    expect(request).toHaveBeenCalledWith({ origins: ['http://localhost/*'] });
  });
});
