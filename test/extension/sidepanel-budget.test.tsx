// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setRuntime } from '../../components/messenger.ts';
import { App } from '../../entrypoints/sidepanel/App.tsx';
import { ClientError } from '../../lib/client/errors.ts';
import { SPEC_LIMITS } from '../../lib/client/scheduler.ts';
import { panelPlaceItem } from '../../lib/storage/library-items.ts';
import { type TestUser } from '../support/server.ts';
import { createFolder, insertBookmarks } from '../server/smart-folders-fixtures.ts';
import { type TestBackground, createTestBackground } from './support/background.ts';
import { libraryPageServer } from './support/library-page.ts';

const MINUTE = 60_000;
/** The scheduler's minute window and its margin, and a second more: the requests of the spent minute have left it. */
const WINDOW = MINUTE + SPEC_LIMITS.marginMs + 1000;
const ROW_HEIGHT = 76;

// Tall enough for every row: the panel asks for the next page as soon as the first is shown.
const server = libraryPageServer({ width: 360, height: 160 * ROW_HEIGHT });
let bg: TestBackground;
let u: TestUser;

beforeEach(async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  fakeBrowser.reset();
  bg = createTestBackground();
  setRuntime(bg.runtime);
  u = await server.t.user();
  await server.t.advance(2 * MINUTE);
  await bg.services.account.signIn(server.t.baseUrl, u.token);
  await bg.idle();
});
afterEach(async () => {
  cleanup();
  await bg.idle();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function openPanel(): void {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  render(
    <QueryClientProvider client={client}>
      <App />
    </QueryClientProvider>,
  );
}

/** Spends the minute's requests (as a quick scroll through a long list would): the next one is refused unsent, RATE_LIMITED. */
async function spendTheMinute(): Promise<void> {
  for (let sent = 0; sent < 200; sent++) {
    const refused = await bg.services.browse.search('spent').then(
      () => null,
      (err: unknown) => err,
    );
    if (refused instanceof ClientError && refused.code === 'RATE_LIMITED') return;
    if (refused) throw refused;
  }
  throw new Error('the scheduler sent 200 requests in a minute');
}

/** The budget frees up: the scheduler's window passes, and the server's (its own clock) with it. */
async function minutePasses(): Promise<void> {
  await server.t.advance(2 * MINUTE);
  await vi.advanceTimersByTimeAsync(WINDOW);
}

describe('side panel: the request budget spent', () => {
  it('keeps the rows shown when the next page is refused for the budget, and loads it once there is room', async () => {
    const now = server.t.server.deps.clock.now();
    const ids = insertBookmarks(server.t, server.db, u.userId, Array.from({ length: 150 }, (_, i) => ({ createdAt: now - i * 1000 })));
    // Opened before: the first page is kept, and shows without a request.
    await bg.services.browse.page({ kind: 'all' });
    await panelPlaceItem.set({ kind: 'list', source: { kind: 'all' }, title: 'All bookmarks' });
    await spendTheMinute();

    openPanel();
    const list = await screen.findByRole('list', { name: 'All bookmarks' });
    expect(await within(list).findByRole('link', { name: `Title ${ids[0]}` })).toBeTruthy();
    // The second page is refused unsent: the rows stay, and the panel says why it waits.
    expect((await screen.findByRole('alert')).textContent).toContain('Too many requests for now.');
    expect(within(list).getByRole('link', { name: `Title ${ids[99]}` })).toBeTruthy();

    await minutePasses();
    expect(await within(list).findByRole('link', { name: `Title ${ids[149]}` }, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a smart folder once the budget allows when opening it was refused', async () => {
    const now = server.t.server.deps.clock.now();
    insertBookmarks(server.t, server.db, u.userId, [{ createdAt: now, tags: ['later'] }]);
    // Made elsewhere: the panel must ask for the folder list before it can show the folder.
    const folder = await createFolder(u, { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'later' }] }, 'Later');
    await panelPlaceItem.set({ kind: 'smart', id: folder.id, name: folder.name });
    await spendTheMinute();

    openPanel();
    expect((await screen.findByRole('alert')).textContent).toContain('Too many requests for now.');
    await minutePasses();
    expect(await screen.findByText(/^1 match, fetched/, undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
