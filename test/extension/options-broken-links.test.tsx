// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { type UserEvent, userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { setRuntime } from '../../components/messenger.ts';
import { BrokenLinksSection } from '../../components/options/broken-links/BrokenLinksSection.tsx';
import { Bookmark, type LinkStatus } from '../../lib/api/bookmarks.ts';
import { dataOf } from '../support/expect.ts';
import type { TestUser } from '../support/server.ts';
import { type TestBackground, createTestBackground } from './support/background.ts';
import { libraryPageServer } from './support/library-page.ts';

// The in-process server runs with link checking off: statuses are written as the checker writes them, and re-check answers 409.
const server = libraryPageServer({ width: 560, height: 480 });
let bg: TestBackground;
let u: TestUser;
let user: UserEvent;

beforeEach(async () => {
  fakeBrowser.reset();
  bg = createTestBackground();
  setRuntime(bg.runtime);
  user = userEvent.setup();
  u = await server.t.user();
  await bg.services.account.signIn(server.t.baseUrl, u.token);
  await bg.idle();
});
afterEach(async () => {
  cleanup();
  await bg.idle();
});

/** A bookmark saved through the API, then given the status the link checker would have given it. */
async function checked(title: string, url: string, linkStatus: LinkStatus, httpStatusCode: number): Promise<Bookmark> {
  const saved = dataOf(await u.api('POST', '/bookmarks', { body: { url, title } }), Bookmark, 201);
  server.db
    .prepare('UPDATE bookmarks SET link_status = ?, http_status_code = ?, last_checked_at = ? WHERE id = ?')
    .run(linkStatus, httpStatusCode, server.t.server.deps.clock.now() - 3 * 3_600_000, saved.id);
  return saved;
}

function show(): void {
  render(
    <QueryClientProvider client={libraryQueryClient()}>
      <BrokenLinksSection />
    </QueryClientProvider>,
  );
}

const group = (name: RegExp) => screen.findByRole('region', { name });

describe('options: broken links', () => {
  it('groups the links by status with their counts, rows with URL, answer, last check and a link to the archived copies', async () => {
    await checked('Old post', 'https://gone.example/post', 'broken', 404);
    await checked('Second old post', 'https://gone.example/other', 'broken', 410);
    await checked('Moved page', 'https://moved.example/', 'redirected', 301);
    await checked('Failing page', 'https://failing.example/', 'error', 503);
    await checked('Silent page', 'https://silent.example/', 'unreachable', 0);
    await checked('Fine page', 'https://fine.example/', 'ok', 200);
    show();

    const gone = await group(/^Gone \(2\)$/);
    expect(await within(gone).findByText('Old post')).toBeTruthy();
    expect(within(gone).getByText('Second old post')).toBeTruthy();
    expect(within(gone).getByText('https://gone.example/post')).toBeTruthy();
    expect(within(gone).getByText(/Answered 404 · checked 3 hours ago/)).toBeTruthy();
    const moved = await group(/^Moved \(1\)$/);
    expect(await within(moved).findByText(/Answered 301/)).toBeTruthy();
    expect(await within(await group(/^Error \(1\)$/)).findByText(/Answered 503/)).toBeTruthy();
    const silent = await group(/^Unreachable \(1\)$/);
    expect(await within(silent).findByText(/No answer · checked 3 hours ago/)).toBeTruthy();
    // A link that is fine is not listed anywhere.
    expect(screen.queryByText('Fine page')).toBeNull();

    const archive = within(gone).getByRole('link', { name: 'Open archived copy of Old post' });
    expect(archive.getAttribute('href')).toBe('https://web.archive.org/web/*/https://gone.example/post');
    expect(archive.getAttribute('target')).toBe('_blank');
    expect(archive.getAttribute('rel')).toContain('noopener');
  });

  it('says plainly when the server does not check links, and changes nothing', async () => {
    const a = await checked('Old post', 'https://gone.example/post', 'broken', 404);
    show();

    await user.click(await screen.findByRole('button', { name: 'Re-check Old post' }));
    expect(await screen.findByText(/This server does not check links: it was started with link checking turned off/)).toBeTruthy();
    const row = server.db.prepare<[string], { link_status: string; deleted_at: number | null }>('SELECT link_status, deleted_at FROM bookmarks WHERE id = ?').get(a.id);
    expect(row).toEqual({ link_status: 'broken', deleted_at: null });
    expect(within(await group(/^Gone \(1\)$/)).getByText('Old post')).toBeTruthy();
  });

  it('trashes a row: it leaves its group, the count drops, and the bookmark is in the trash on the server', async () => {
    const old = await checked('Old post', 'https://gone.example/post', 'broken', 404);
    await checked('Second old post', 'https://gone.example/other', 'broken', 410);
    show();
    const gone = await group(/^Gone \(2\)$/);
    await within(gone).findByText('Old post');

    await user.click(within(gone).getByRole('button', { name: 'Trash Old post' }));

    expect(await group(/^Gone \(1\)$/)).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Old post')).toBeNull());
    expect(screen.getByText('Second old post')).toBeTruthy();
    // Listed in the trash, where it can be restored from.
    expect(JSON.stringify((await u.api('GET', '/bookmarks/trash')).body)).toContain(old.id);
    expect(server.db.prepare<[string], { deleted_at: number | null }>('SELECT deleted_at FROM bookmarks WHERE id = ?').get(old.id)?.deleted_at).not.toBeNull();
  });
});
