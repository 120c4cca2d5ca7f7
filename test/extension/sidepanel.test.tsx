// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { App } from '../../entrypoints/sidepanel/App.tsx';
import { Collection } from '../../lib/api/collections.ts';
import { dataOf } from '../support/expect.ts';
import { createFolder, insertBookmarks, setRules } from '../server/smart-folders-fixtures.ts';
import { stubPageFetch } from './support/background.ts';
import { signedInLibrary } from './support/library-page.ts';
import { SPEC_LIMITS } from '../../lib/client/scheduler.ts';
import { firstPageItem, panelPlaceItem } from '../../lib/storage/library-items.ts';
import { ClientError } from '../../lib/client/errors.ts';

const MINUTE = 60_000;
/** The scheduler's windows (a minute and its margin), and a second more: the next evaluation, or any request refused for the minute, may go. */
const HEAVY_WINDOW = MINUTE + SPEC_LIMITS.marginMs + 1000;

const PANEL_HEIGHT = 640;
const ROW_HEIGHT = 76;
const server = signedInLibrary({ width: 360, height: PANEL_HEIGHT });

function openPanel(): void {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  render(
    <QueryClientProvider client={client}>
      <App />
    </QueryClientProvider>,
  );
}

/** Time that runs as usual and can also jump a minute ahead: the panel's wait for the budget then ends. */
const fakeClock = () => vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });

const requested = (pattern: RegExp) => server.bg.requests.filter((r) => pattern.test(`${r.method} ${new URL(r.url).pathname}${new URL(r.url).search}`));

async function collection(name: string): Promise<Collection> {
  return dataOf(await server.u.api('POST', '/collections', { body: { name } }), Collection, 201);
}

/** `count` bookmarks, newest first by index: "Title <id>" rows as the fixtures write them. */
function bookmarks(count: number, extra: { collectionId?: string; tags?: string[]; trashed?: boolean } = {}): string[] {
  const now = server.t.server.deps.clock.now();
  return insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: count }, (_, i) => ({ createdAt: now - i * 1000, ...extra })));
}

describe('side panel: browsing', () => {
  it('shows the library’s places and a collection’s bookmarks with their domain, tags and age, one page of 100 a request', async () => {
    const reading = await collection('Reading');
    const ids = bookmarks(150, { collectionId: reading.id, tags: ['news/tech'] });
    openPanel();

    const library = await screen.findByRole('navigation', { name: 'Library' });
    await server.user.click(await within(library).findByRole('button', { name: /^Reading/ }));
    const list = await screen.findByRole('list', { name: 'Reading' });
    const first = await within(list).findByRole('link', { name: `Title ${ids[0]}` });
    expect(first.closest('li')!.textContent).toContain('example.com');
    expect(first.closest('li')!.textContent).toContain('#news/tech');
    expect(requested(/GET \/v1\/collections\/[^/]+\/bookmarks/)).toEqual([expect.objectContaining({ url: expect.stringContaining('limit=100') })]);
    // Virtualised: only the rows in view are in the page.
    expect(within(list).getAllByRole('listitem').length).toBeLessThan(40);
  });

  it('links to the library page, in a new tab', async () => {
    openPanel();
    const link = await screen.findByRole('link', { name: 'Open library' });
    expect(link.getAttribute('href')).toBe('/library.html');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('searches as the user types, once the typing settles', async () => {
    const [id] = insertBookmarks(server.t, server.db, server.u.userId, [{ createdAt: server.t.server.deps.clock.now() }]);
    server.db.prepare('UPDATE bookmarks SET title = ? WHERE id = ?').run('Fermentation at home', id);
    openPanel();
    await server.user.type(await screen.findByRole('searchbox', { name: 'Search bookmarks' }), 'ferment');
    expect(await screen.findByRole('link', { name: 'Fermentation at home' })).toBeTruthy();
    // One request for the settled text, none per keystroke.
    expect(requested(/GET \/v1\/bookmarks\/search/)).toHaveLength(1);
  });

  it('highlights the current tab’s page and saves it when it is not saved', async () => {
    const tab = await fakeBrowser.tabs.create({ url: 'http://127.0.0.1:9/recipes', active: true });
    vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([{ ...tab, title: 'Recipes' }]);
    stubPageFetch(server.t, { title: 'Recipes', description: '' });
    openPanel();
    // Enabled once the background has asked the server whether the page is saved (its index may be behind).
    const save = await screen.findByRole('button', { name: 'Save this page' });
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(false));
    await server.user.click(save);
    expect(await screen.findByText('Saved')).toBeTruthy();
    await server.user.click(within(screen.getByRole('navigation', { name: 'Library' })).getByRole('button', { name: 'All bookmarks' }));
    const link = await screen.findByRole('link', { name: /Recipes/ });
    expect(link.closest('[aria-current="page"]')).not.toBeNull();
  });

  it('a page saved elsewhere (an import, another device) and listed is highlighted and shown saved, never offered to save again', async () => {
    // Saved on the server after the sign-in's sync: the index does not know it yet.
    const [imported] = bookmarks(1);
    const tab = await fakeBrowser.tabs.create({ url: `https://example.com/${imported}`, active: true });
    vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([{ ...tab, title: 'Imported' }]);
    openPanel();
    await server.user.click(await within(await screen.findByRole('navigation', { name: 'Library' })).findByRole('button', { name: 'All bookmarks' }));
    const link = await screen.findByRole('link', { name: new RegExp(`Title ${imported}`) });
    await waitFor(() => expect(screen.getByText('Saved')).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Save this page' })).toBeNull();
    expect(link.closest('[aria-current="page"]')).not.toBeNull();
    expect(document.querySelectorAll('[aria-current="page"]')).toHaveLength(1);
    expect(await server.bg.services.index.lookup(tab.url!)).toBe(imported);
  });

  it('keeps a list’s first page again only when it changed, so that its version says what the panel drew', async () => {
    bookmarks(5);
    stubPageFetch(server.t);
    const item = firstPageItem(JSON.stringify({ kind: 'all' }));
    await server.bg.services.browse.page({ kind: 'all' });
    const first = await item.get();
    await server.t.advance(1000);
    await server.bg.services.browse.page({ kind: 'all' });
    expect(await item.get()).toEqual(first);

    await server.u.api('POST', '/bookmarks', { body: { url: 'https://example.com/new', title: 'New' } });
    await server.t.advance(1000);
    await server.bg.services.browse.page({ kind: 'all' });
    const changed = await item.get();
    expect(changed?.bookmarks[0]?.title).toBe('New');
    expect(changed?.keptAt).not.toBe(first?.keptAt);
  });
});

describe('side panel: another account', () => {
  it('shows nothing kept for one account once another signs in over it', async () => {
    bookmarks(3);
    const all = firstPageItem(JSON.stringify({ kind: 'all' }));
    await server.bg.services.browse.page({ kind: 'all' });
    expect((await all.get())?.bookmarks).toHaveLength(3);
    await server.bg.handlers.signIn({ serverUrl: server.t.baseUrl, token: server.u.token });
    expect((await all.get())?.bookmarks).toHaveLength(3); // the same account again: all stays

    const other = await server.t.user();
    await server.bg.handlers.signIn({ serverUrl: server.t.baseUrl, token: other.token });
    await server.bg.idle();
    expect(await all.get()).toBeNull();
  });
});

describe('side panel: acting on bookmarks', () => {
  it('selects with click, Shift-click and Ctrl-A, and moves the selection in bulk requests of 50 with one progress line', async () => {
    const target = await collection('Archive');
    const ids = bookmarks(60);
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'All bookmarks' }));
    const list = await screen.findByRole('list', { name: 'All bookmarks' });
    await server.user.click(await within(list).findByRole('link', { name: `Title ${ids[0]}` }).then((link) => link.closest('li')!.querySelector('p')!));
    expect(screen.getByRole('toolbar', { name: 'Selected bookmarks' }).textContent).toContain('1 selected');
    await server.user.keyboard('{Shift>}');
    await server.user.click(within(list).getByRole('link', { name: `Title ${ids[3]}` }).closest('li')!.querySelector('p')!);
    await server.user.keyboard('{/Shift}');
    expect(screen.getByRole('toolbar', { name: 'Selected bookmarks' }).textContent).toContain('4 selected');

    fireEvent.keyDown(screen.getByRole('region', { name: 'All bookmarks' }), { key: 'a', ctrlKey: true });
    expect(screen.getByRole('toolbar', { name: 'Selected bookmarks' }).textContent).toContain('60 selected');

    await server.user.click(screen.getByRole('button', { name: 'Move to…' }));
    const dialog = screen.getByRole('dialog', { name: 'Move 60 bookmarks' });
    await server.user.click(within(dialog).getByRole('button', { name: /Unsorted/ }));
    await server.user.click(await within(dialog).findByRole('treeitem', { name: /Archive/ }));
    await server.user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Moved 60 of 60.')).toBeTruthy();
    expect(requested(/POST \/v1\/bookmarks\/bulk\/move/)).toHaveLength(2);
    const moved = server.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM bookmarks WHERE collection_id = ?').get(target.id)!;
    expect(moved.n).toBe(60);
  });

  it('says which bookmarks a bulk action could not change, and why', async () => {
    const ids = bookmarks(3);
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'All bookmarks' }));
    const region = await screen.findByRole('region', { name: 'All bookmarks' });
    await within(region).findByRole('link', { name: `Title ${ids[0]}` });
    server.db.prepare('UPDATE bookmarks SET deleted_at = 1 WHERE id = ?').run(ids[1]);
    fireEvent.keyDown(region, { key: 'a', ctrlKey: true });
    await server.user.click(screen.getByRole('button', { name: 'Favourite' }));
    expect(await screen.findByText('Updated 2 of 3. Not done: 1 (in the trash).')).toBeTruthy();
    expect(server.db.prepare('SELECT COUNT(*) AS n FROM bookmarks WHERE is_favorite = 1 AND user_id = ?').get(server.u.userId)).toEqual({ n: 2 });
  });

  it('favourites at once, trashes with undo, and edits a bookmark from its row', async () => {
    const [id] = bookmarks(1);
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'All bookmarks' }));
    const title = `Title ${id}`;
    await server.user.click(await screen.findByRole('button', { name: `Favourite ${title}` }));
    expect(screen.getByRole('button', { name: `Favourite ${title}` }).getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(server.db.prepare('SELECT is_favorite AS f FROM bookmarks WHERE id = ?').get(id)).toEqual({ f: 1 }));

    await server.user.click(screen.getByRole('button', { name: `Edit ${title}` }));
    const dialog = screen.getByRole('dialog', { name: 'Edit bookmark' });
    await server.user.clear(within(dialog).getByRole('textbox', { name: 'Title' }));
    await server.user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Renamed');
    await server.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('link', { name: 'Renamed' })).toBeTruthy();

    await server.user.click(screen.getByRole('button', { name: 'Trash Renamed' }));
    expect(await screen.findByText('Moved to the trash: Renamed')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Renamed' })).toBeNull();
    await server.user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('link', { name: 'Renamed' })).toBeTruthy();
    expect(server.db.prepare('SELECT deleted_at AS d FROM bookmarks WHERE id = ?').get(id)).toEqual({ d: null });
  });
});

describe('side panel: smart folders', () => {
  /** Exact-tag evaluation walks 200 memberships a request: trashed ones first make empty pages that carry a cursor. */
  function deepTag(trashedPages: number, matches: number): void {
    const now = server.t.server.deps.clock.now();
    insertBookmarks(server.t, server.db, server.u.userId, [
      ...Array.from({ length: 200 * trashedPages }, (_, i) => ({ createdAt: now - i, tags: ['deep'], trashed: true })),
      ...Array.from({ length: matches }, (_, i) => ({ createdAt: now - 1e6 - i, tags: ['deep'] })),
    ]);
  }
  const evaluations = () => requested(/GET \/v1\/smart-folders\/[^/]+\/bookmarks/);

  it('follows the cursor past an empty page, keeps the results, and opens them again without a request', async () => {
    deepTag(1, 30);
    await createFolder(server.u, { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'deep' }] }, 'Deep');
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'Deep' }));
    expect(await screen.findByText(/^30 matches, fetched/)).toBeTruthy();
    expect(evaluations()).toHaveLength(2);
    expect(evaluations()[1]!.url).toContain('cursor=');
    expect(screen.getByRole('button', { name: 'Refresh' })).toHaveProperty('disabled', true);
    expect(screen.getByText(/Refresh possible in \d+ s/)).toBeTruthy();

    await server.user.click(screen.getByRole('button', { name: '← Library' }));
    cleanup();
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'Deep' }));
    expect(await screen.findByText(/^30 matches, fetched/)).toBeTruthy();
    expect(evaluations()).toHaveLength(2);
  });

  it('waits for the budget between pages, and starts again without a cursor when the rules changed meanwhile', async () => {
    fakeClock();
    deepTag(2, 10);
    const fresh = insertBookmarks(server.t, server.db, server.u.userId, [{ createdAt: server.t.server.deps.clock.now(), tags: ['fresh'] }]);
    const folder = await createFolder(server.u, { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'deep' }] }, 'Deep');
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'Deep' }));
    expect(await screen.findByText(/Searching: 0 matches so far, part 3 in \d+ s/)).toBeTruthy();
    expect(evaluations()).toHaveLength(2);

    await setRules(server.u, folder.id, { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'fresh' }] });
    await vi.advanceTimersByTimeAsync(HEAVY_WINDOW);
    // The held cursor is refused (SMART_FOLDER_CURSOR_INVALID); the pass starts again without one, under the new rules.
    expect(await screen.findByRole('link', { name: `Title ${fresh[0]}` }, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText(/^1 match, fetched/)).toBeTruthy();
    const [, , stale, restarted] = evaluations();
    expect(stale!.url).toContain('cursor=');
    expect(restarted!.url).not.toContain('cursor=');
  });

  it('says when results are truncated', async () => {
    fakeClock();
    const now = server.t.server.deps.clock.now();
    insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: 520 }, (_, i) => ({ createdAt: now - i, domain: 'many.example' })));
    await createFolder(server.u, { match: 'all', conditions: [{ field: 'domain', operator: 'equals', value: 'many.example' }] }, 'Many');
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'Many' }));
    // 200 documents a page: the third page, a minute later, says the results stop at 500.
    expect(await screen.findByText(/Searching: 400 matches so far, part 3 in \d+ s/)).toBeTruthy();
    await vi.advanceTimersByTimeAsync(HEAVY_WINDOW);
    expect(await screen.findByText(/Results are cut short/, undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/^500 matches, fetched/)).toBeTruthy();
  });
});

/** Spends the minute's requests (as a quick scroll through a long list would): the next one is refused unsent, RATE_LIMITED. */
async function spendTheMinute(): Promise<void> {
  for (let sent = 0; sent < 200; sent++) {
    const refused = await server.bg.services.browse.search('spent').then(
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
  await vi.advanceTimersByTimeAsync(HEAVY_WINDOW);
}

describe('side panel: the request budget spent', () => {
  // Tall enough for every row: the panel asks for the next page as soon as the first is shown.
  const tall = (height: number) => Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => height });
  beforeEach(() => {
    tall(160 * ROW_HEIGHT);
    fakeClock();
  });
  afterEach(() => tall(PANEL_HEIGHT));

  it('keeps the rows shown when the next page is refused for the budget, and loads it once there is room', async () => {
    const now = server.t.server.deps.clock.now();
    const ids = insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: 150 }, (_, i) => ({ createdAt: now - i * 1000 })));
    // Opened before: the first page is kept, and shows without a request.
    await server.bg.services.browse.page({ kind: 'all' });
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
    insertBookmarks(server.t, server.db, server.u.userId, [{ createdAt: now, tags: ['later'] }]);
    // Made elsewhere: the panel must ask for the folder list before it can show the folder.
    const folder = await createFolder(server.u, { match: 'all', conditions: [{ field: 'tag', operator: 'equals', value: 'later' }] }, 'Later');
    await panelPlaceItem.set({ kind: 'smart', id: folder.id, name: folder.name });
    await spendTheMinute();

    openPanel();
    expect((await screen.findByRole('alert')).textContent).toContain('Too many requests for now.');
    await minutePasses();
    expect(await screen.findByText(/^1 match, fetched/, undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('side panel: editing every field', () => {
  it('changes title, URL, description, note, tags (added and removed), collection, favourite and cover, sending only what changed', async () => {
    const reading = await collection('Reading');
    const [id] = bookmarks(1, { tags: ['old', 'keep'] });
    server.db.prepare("UPDATE bookmarks SET cover_image = 'https://example.com/cover.png' WHERE id = ?").run(id);
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'All bookmarks' }));
    await server.user.click(await screen.findByRole('button', { name: `Edit Title ${id}` }));
    const dialog = screen.getByRole('dialog', { name: 'Edit bookmark' });
    const update = vi.spyOn(server.bg.services.bookmarks, 'update');
    const field = (name: string) => within(dialog).getByRole('textbox', { name });

    // Bad input first: said on the spot, nothing sent.
    await server.user.clear(within(dialog).getByLabelText('URL'));
    await server.user.type(within(dialog).getByLabelText('URL'), 'not a url');
    await server.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('URL must be an absolute http or https URL.');
    expect(requested(/PATCH \/v1\/bookmarks\//)).toHaveLength(0);

    await server.user.clear(within(dialog).getByLabelText('URL'));
    await server.user.type(within(dialog).getByLabelText('URL'), 'https://edited.example/page');
    await server.user.clear(field('Title'));
    await server.user.type(field('Title'), 'Edited title');
    await server.user.type(field('Description'), 'A description');
    await server.user.type(field('Note'), 'A note');
    await server.user.click(within(dialog).getByRole('button', { name: 'Remove tag old' }));
    await server.user.type(within(dialog).getByRole('combobox', { name: 'Tags' }), 'fresh{Enter}');
    await server.user.click(within(dialog).getByRole('button', { name: /^Collection: / }));
    await server.user.click(await within(dialog).findByRole('treeitem', { name: 'Reading' }));
    await server.user.click(within(dialog).getByRole('checkbox', { name: 'Favourite' }));
    await server.user.click(within(dialog).getByRole('checkbox', { name: 'Remove cover' }));
    await server.user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('link', { name: 'Edited title' })).toBeTruthy();
    await waitFor(() => expect(requested(/DELETE \/v1\/bookmarks\/[^/]+\/cover/).map((r) => r.status)).toEqual([200]));
    expect(requested(/PATCH \/v1\/bookmarks\//)).toHaveLength(1);
    expect(update).toHaveBeenCalledTimes(1);
    expect(update.mock.calls[0]![1]).toEqual({
      url: 'https://edited.example/page',
      title: 'Edited title',
      description: 'A description',
      note: 'A note',
      tags: ['keep', 'fresh'],
      collectionId: reading.id,
      isFavorite: true,
    });
    const row = server.db
      .prepare('SELECT url, title, description, note, collection_id AS c, is_favorite AS f, cover_image AS cover FROM bookmarks WHERE id = ?')
      .get(id);
    expect(row).toEqual({ url: 'https://edited.example/page', title: 'Edited title', description: 'A description', note: 'A note', c: reading.id, f: 1, cover: null });

    // Saving again with nothing changed sends nothing.
    await server.user.click(screen.getByRole('button', { name: 'Edit Edited title' }));
    await server.user.click(within(screen.getByRole('dialog', { name: 'Edit bookmark' })).getByRole('button', { name: 'Save' }));
    expect(requested(/PATCH \/v1\/bookmarks\//)).toHaveLength(1);
  });
});

describe('side panel: broken links', () => {
  it('are reachable from the library’s list, grouped as on the options page', async () => {
    const [id] = bookmarks(1);
    server.db.prepare("UPDATE bookmarks SET link_status = 'broken', http_status_code = 404, last_checked_at = ? WHERE id = ?").run(server.t.server.deps.clock.now(), id);
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'Broken links' }));
    expect(await screen.findByRole('heading', { name: 'Broken links' })).toBeTruthy();
    const gone = await screen.findByRole('region', { name: /^Gone \(1\)$/ });
    expect(await within(gone).findByText(`Title ${id}`)).toBeTruthy();
    expect(within(gone).getByRole('button', { name: `Trash Title ${id}` })).toBeTruthy();
  });
});

describe('side panel: a bookmark’s details', () => {
  it('say how often it was opened from Shelf', async () => {
    const [id] = bookmarks(1);
    server.db.prepare('UPDATE bookmarks SET click_count = 1234 WHERE id = ?').run(id);
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'All bookmarks' }));
    await server.user.click(await screen.findByRole('button', { name: `Edit Title ${id}` }));
    expect(within(screen.getByRole('dialog', { name: 'Edit bookmark' })).getByText('Opened 1,234 times')).toBeTruthy();
  });
});

describe('side panel: bulk tags', () => {
  const tagsOf = (id: string) =>
    (server.db.prepare('SELECT t.name FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id WHERE bt.bookmark_id = ? ORDER BY t.name').all(id) as { name: string }[]).map((r) => r.name);

  it('adds two tags to three bookmarks, then removes one of them, each with one progress line and a summary', async () => {
    const ids = bookmarks(3, { tags: ['kept'] });
    openPanel();
    await server.user.click(await screen.findByRole('button', { name: 'All bookmarks' }));
    await screen.findByRole('link', { name: `Title ${ids[0]}` });
    fireEvent.keyDown(screen.getByRole('region', { name: 'All bookmarks' }), { key: 'a', ctrlKey: true });

    await server.user.click(screen.getByRole('button', { name: 'Tag…' }));
    let dialog = screen.getByRole('dialog', { name: 'Tag 3 bookmarks' });
    // Nothing that can be a tag: said, nothing sent.
    // Named by its label alone; the hint is its description.
    await server.user.type(within(dialog).getByRole('combobox', { name: 'Tag name', description: 'Several at once: separate them with commas.' }), ' , ');
    await server.user.click(within(dialog).getByRole('button', { name: 'Add tag' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/Type a tag name/);
    expect(requested(/\/bulk\/tag/)).toHaveLength(0);
    await server.user.clear(within(dialog).getByRole('combobox', { name: 'Tag name' }));
    await server.user.type(within(dialog).getByRole('combobox', { name: 'Tag name' }), 'reading, later, Reading');
    await server.user.click(within(dialog).getByRole('button', { name: 'Add tag' }));
    expect(await screen.findByText('Tagged 3 of 3.')).toBeTruthy();
    expect(requested(/POST \/v1\/bookmarks\/bulk\/tag/)).toHaveLength(2);
    for (const id of ids) expect(tagsOf(id)).toEqual(['kept', 'later', 'reading']);

    await server.user.click(screen.getByRole('button', { name: 'Remove tag…' }));
    dialog = screen.getByRole('dialog', { name: 'Remove a tag from 3 bookmarks' });
    const choice = within(dialog).getByRole('combobox', { name: 'Tag to remove' });
    expect(within(choice).getAllByRole('option').map((o) => o.textContent)).toEqual(['kept', 'later', 'reading']);
    await server.user.selectOptions(choice, 'later');
    await server.user.click(within(dialog).getByRole('button', { name: 'Remove tag' }));
    expect(await screen.findByText('Removed the tag from 3 of 3.')).toBeTruthy();
    expect(requested(/DELETE \/v1\/bookmarks\/bulk\/tag/)).toHaveLength(1);
    for (const id of ids) expect(tagsOf(id)).toEqual(['kept', 'reading']);
    expect(within(screen.getByRole('list', { name: 'All bookmarks' })).getAllByText('· #kept #reading')).toHaveLength(3);
  });
});
