// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DuplicatesView } from '../../components/library/DuplicatesView.tsx';
import { defaultKeep, mergePlan } from '../../components/library/duplicate-merge.ts';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { Bookmark, BookmarkPage, type DuplicateBookmark, DuplicatesResult } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { ClientError } from '../../lib/client/errors.ts';
import { SPEC_LIMITS } from '../../lib/client/scheduler.ts';
import { FIRST_GROUPS } from '../../entrypoints/background/duplicates.ts';
import { dataOf } from '../support/expect.ts';
import { insertBookmarks } from '../server/smart-folders-fixtures.ts';
import { signedInLibrary } from './support/library-page.ts';

const MINUTE = 60_000;
/** The scheduler's heavy-endpoint window (a minute and its margin), and a second more: the next search may go. */
const HEAVY_WINDOW = MINUTE + SPEC_LIMITS.marginMs + 1000;

// Each test starts with the heavy-endpoint minute behind it (signedInLibrary advances the clock 2 minutes).
const server = signedInLibrary({ width: 560, height: 640 });

function show(): void {
  render(
    <QueryClientProvider client={libraryQueryClient()}>
      <DuplicatesView />
    </QueryClientProvider>,
  );
}

const requested = (pattern: RegExp) => server.bg.requests.filter((r) => pattern.test(`${r.method} ${new URL(r.url).pathname}`));

/** Saved through the API, with title and description so that no page is fetched; a minute apart, oldest first. */
async function save(body: { url: string; title: string; tags?: string[]; note?: string; collectionId?: string }): Promise<Bookmark> {
  await server.t.advance(MINUTE);
  return dataOf(await server.u.api('POST', '/bookmarks', { body: { description: 'd', ...body } }), Bookmark, 201);
}

const get = async (id: string) => dataOf(await server.u.api('GET', `/bookmarks/${id}`), Bookmark);
const trashIds = async () => dataOf(await server.u.api('GET', '/bookmarks/trash'), BookmarkPage).data.map((b) => b.id);

/** One group of three near-duplicates: the second has the most data, so it is kept unless the user chooses. */
async function group() {
  const reading = dataOf(await server.u.api('POST', '/collections', { body: { name: 'Reading' } }), Collection, 201);
  const oldest = await save({ url: 'http://dup.example/page', title: 'Oldest copy', tags: ['web'] });
  const richest = await save({ url: 'https://www.dup.example/page/', title: 'Richest copy', tags: ['Web', 'css'], note: 'Read twice.', collectionId: reading.id });
  const newest = await save({ url: 'https://dup.example/page?utm_source=feed', title: 'Newest copy', tags: ['layout'], note: 'From the feed.' });
  server.bg.requests.length = 0;
  return { oldest, richest, newest };
}

describe('duplicates: choosing and merging', () => {
  it('keeps the one with most data by default, the oldest on a tie, and merges tags without case twins and notes once each', async () => {
    await group();
    // The group as the API answers it (the members' small records), straight from the server.
    const [oldest, richest, newest] = dataOf(await server.u.api('GET', '/bookmarks/duplicates'), DuplicatesResult).groups[0]!.bookmarks as [DuplicateBookmark, DuplicateBookmark, DuplicateBookmark];
    expect(defaultKeep([oldest, richest, newest]).id).toBe(richest.id);
    expect(defaultKeep([{ ...oldest, tags: [] }, { ...newest, tags: [], note: '' }]).id).toBe(oldest.id);
    // A cover and a description count as data too.
    expect(defaultKeep([{ ...oldest, tags: [] }, { ...newest, tags: [], note: '', hasCover: true }]).id).toBe(newest.id);
    expect(defaultKeep([{ ...oldest, tags: [], hasDescription: false }, { ...newest, tags: [], note: '' }]).id).toBe(newest.id);
    // The server reuses the first spelling of a tag: "Web" became "web".
    expect([...richest.tags].sort()).toEqual(['css', 'web']);
    const plan = mergePlan([oldest, richest, newest], richest.id);
    expect(plan.patch).toEqual({ tags: [...richest.tags, 'layout'], note: 'Read twice.\n\nFrom the feed.' });
    expect(mergePlan([{ ...oldest, tags: ['Web'] }, { ...newest, tags: ['web', 'WEB', 'x'] }], oldest.id).patch?.tags).toEqual(['Web', 'x']);
    expect(plan.trash.map((b) => b.id)).toEqual([oldest.id, newest.id]);
    // A kept bookmark that already has everything needs no PATCH.
    expect(mergePlan([{ ...oldest, note: 'x' }, { ...newest, tags: ['web'], note: 'x' }], oldest.id).patch).toBeNull();
  });

  it('shows each group side by side, merges the others into the kept one with one PATCH, trashes them in one bulk request and says what was done', async () => {
    const { oldest, richest, newest } = await group();
    show();
    const fieldset = await screen.findByRole('group', { name: 'Duplicates of dup.example/page' });
    expect(await screen.findByText(/1 group of duplicates, found/)).toBeTruthy();
    // Title, URL, collection, tags, dates and note of each.
    expect(within(fieldset).getByText('Richest copy')).toBeTruthy();
    expect(within(fieldset).getByText('https://www.dup.example/page/')).toBeTruthy();
    // The collection's name comes with the collections' own answer, which may arrive after the groups'.
    expect(await within(fieldset).findByText('Reading')).toBeTruthy();
    expect(within(fieldset).getByText(richest.tags.map((t) => `#${t}`).join(' '))).toBeTruthy();
    expect(within(fieldset).getByText('Read twice.')).toBeTruthy();
    expect(within(fieldset).getAllByText('Unsorted')).toHaveLength(2);
    expect(within(fieldset).getAllByRole('radio')).toHaveLength(3);
    expect(within(fieldset).getByRole('radio', { name: 'Keep Richest copy (https://www.dup.example/page/)' })).toHaveProperty('checked', true);
    expect(requested(/GET \/v1\/bookmarks\/duplicates/)).toHaveLength(1);

    await server.user.click(within(fieldset).getByRole('button', { name: 'Merge the duplicates of dup.example/page' }));
    expect(await screen.findByText('Merged 1 group of 1: moved 2 duplicates to the trash.')).toBeTruthy();
    expect(screen.getByText('No duplicates.')).toBeTruthy();
    const kept = await get(richest.id);
    expect([...kept.tags].sort()).toEqual(['css', 'layout', 'web']);
    expect(kept.note).toBe('Read twice.\n\nFrom the feed.');
    expect(kept.collectionId).toBe(richest.collectionId);
    expect((await trashIds()).sort()).toEqual([oldest.id, newest.id].sort());
    expect(requested(/PATCH \/v1\/bookmarks\//)).toHaveLength(1);
    expect(requested(/POST \/v1\/bookmarks\/bulk\/trash/)).toHaveLength(1);
    // The merge asks no new search: the heavy budget is left for the user's own.
    expect(requested(/GET \/v1\/bookmarks\/duplicates/)).toHaveLength(1);
  });

  it('merges into the bookmark the user chose instead', async () => {
    const { oldest, richest, newest } = await group();
    show();
    const fieldset = await screen.findByRole('group', { name: 'Duplicates of dup.example/page' });
    await server.user.click(within(fieldset).getByRole('radio', { name: 'Keep Oldest copy (http://dup.example/page)' }));
    expect(within(fieldset).getByRole('radio', { name: 'Keep Oldest copy (http://dup.example/page)' })).toHaveProperty('checked', true);
    await server.user.click(within(fieldset).getByRole('button', { name: 'Merge the duplicates of dup.example/page' }));
    await screen.findByText('Merged 1 group of 1: moved 2 duplicates to the trash.');
    const kept = await get(oldest.id);
    expect([...kept.tags].sort()).toEqual(['css', 'layout', 'web']);
    expect(kept.note).toBe('Read twice.\n\nFrom the feed.');
    expect((await trashIds()).sort()).toEqual([richest.id, newest.id].sort());
  });

  it('a group whose kept bookmark cannot be changed keeps all its bookmarks, and the summary says why', async () => {
    const { oldest, richest, newest } = await group();
    show();
    const fieldset = await screen.findByRole('group', { name: 'Duplicates of dup.example/page' });
    // Deleted elsewhere after the search.
    await server.u.api('DELETE', `/bookmarks/${richest.id}`);
    await server.user.click(within(fieldset).getByRole('button', { name: 'Merge the duplicates of dup.example/page' }));
    const summary = await screen.findByText(/^Merged 0 groups of 1: moved 0 duplicates to the trash\. 1 group not merged \(.+\)\.$/);
    expect(summary.textContent).not.toMatch(/undefined|null/);
    expect(await trashIds()).toEqual([richest.id]);
    expect((await get(oldest.id)).deletedAt ?? null).toBeNull();
    expect((await get(newest.id)).tags).toEqual(['layout']);
    expect(requested(/POST \/v1\/bookmarks\/bulk\/trash/)).toHaveLength(0);
  });

  // 28 requests through the background to an in-process server: seconds when the machine is busy.
  it('merges every group at once: one PATCH per group, the others trashed in bulk requests of 50', { timeout: 40_000 }, async () => {
    const now = server.t.server.deps.clock.now();
    // 26 groups of three: 52 to trash, two bulk requests.
    const ids = insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: 78 }, (_, i) => ({ createdAt: now - i * 1000, tags: [`t${i}`] })));
    const trio = server.db.prepare('UPDATE bookmarks SET url_key = ? WHERE id = ?');
    ids.forEach((id, i) => trio.run(`trio.example/${Math.floor(i / 3)}`, id));
    show();
    const mergeAll = await screen.findByRole('button', { name: 'Merge all 26 groups' });
    // Enabled once every group is checked (the first screen's are checked first, the rest in idle time).
    await waitFor(() => expect(mergeAll).toHaveProperty('disabled', false));
    await server.user.click(mergeAll);
    expect(await screen.findByText('Merged 26 groups of 26: moved 52 duplicates to the trash.', {}, { timeout: 30_000 })).toBeTruthy();
    expect(requested(/PATCH \/v1\/bookmarks\//)).toHaveLength(26);
    expect(requested(/POST \/v1\/bookmarks\/bulk\/trash/)).toHaveLength(2);
    // Each trio's oldest one (the third inserted) is kept, with the three tags.
    expect([...(await get(ids[2]!)).tags].sort()).toEqual(['t0', 't1', 't2']);
    expect((await get(ids[0]!)).deletedAt).toBeTruthy();
  });
});

describe('duplicates: the heavy-endpoint budget', () => {
  it('searches once on opening, says when it may search again, and a search refused for the budget waits and then goes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    await group();
    const searches = () => requested(/GET \/v1\/bookmarks\/duplicates/);
    // Another page spent one search of this minute.
    await server.bg.services.duplicates.find();
    show();
    await screen.findByRole('group', { name: 'Duplicates of dup.example/page' });
    expect(searches()).toHaveLength(2);
    expect(await screen.findByText(/You can search again in \d+ s\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Search again' })).toHaveProperty('disabled', true);

    await vi.advanceTimersByTimeAsync(HEAVY_WINDOW);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Search again' })).toHaveProperty('disabled', false));
    await server.user.click(screen.getByRole('button', { name: 'Search again' }));
    await waitFor(() => expect(searches()).toHaveLength(3));

    // A second page opened now finds the minute spent: it says when it will search, sends nothing until then.
    await server.bg.services.duplicates.find();
    cleanup();
    show();
    expect(await screen.findByText(/This search can be made twice a minute: it will start in \d+ s\./)).toBeTruthy();
    expect(searches()).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(HEAVY_WINDOW);
    await screen.findByRole('group', { name: 'Duplicates of dup.example/page' });
    expect(searches()).toHaveLength(5);
  });

  it('shows the API’s 500 groups (its most) as a virtualised list: a few groups in the page, not all of them', async () => {
    const now = server.t.server.deps.clock.now();
    const ids = insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: 1000 }, (_, i) => ({ createdAt: now - i * 1000 })));
    const pair = server.db.prepare('UPDATE bookmarks SET url_key = ? WHERE id = ?');
    server.db.transaction(() => ids.forEach((id, i) => pair.run(`many.example/${Math.floor(i / 2)}`, id)))();
    show();
    expect(await screen.findByText(/500 groups of duplicates/)).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Duplicate groups' });
    const shown = within(list).getAllByRole('group');
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(10);
    expect(within(list).getAllByRole('listitem')[0]!.getAttribute('aria-setsize')).toBe('500');
  });

  it('sends the first screen’s groups first and the rest once it is shown; Merge all waits for them and then merges every group', async () => {
    const now = server.t.server.deps.clock.now();
    const ids = insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: 60 }, (_, i) => ({ createdAt: now - i * 1000 })));
    const pair = server.db.prepare('UPDATE bookmarks SET url_key = ? WHERE id = ?');
    server.db.transaction(() => ids.forEach((id, i) => pair.run(`later.example/${String(Math.floor(i / 2)).padStart(2, '0')}`, id)))();
    // The background's side: the first reply holds the first screen's groups, the rest are asked for without a request.
    const duplicates = server.bg.services.duplicates;
    const first = await duplicates.find();
    expect(first.groups).toHaveLength(FIRST_GROUPS);
    expect(first.total).toBe(30);
    const rest = duplicates.more(first.fetchedAt, FIRST_GROUPS);
    expect([...first.groups, ...rest].map((g) => g.normalizedUrl)).toEqual(Array.from({ length: 30 }, (_, i) => `later.example/${String(i).padStart(2, '0')}`));
    expect(() => duplicates.more(first.fetchedAt - 1, FIRST_GROUPS)).toThrow(expect.objectContaining({ code: 'SEARCH_GONE' }));

    await server.t.advance(HEAVY_WINDOW);
    server.bg.requests.length = 0;
    show();
    expect(await screen.findByRole('group', { name: 'Duplicates of later.example/00' })).toBeTruthy();
    expect(screen.getByText(/30 groups of duplicates/)).toBeTruthy();
    const mergeAll = screen.getByRole('button', { name: 'Merge all 30 groups' });
    await waitFor(() => expect(mergeAll).toHaveProperty('disabled', false));
    await server.user.click(mergeAll);
    expect(await screen.findByText('Merged 30 groups of 30: moved 30 duplicates to the trash.', {}, { timeout: 10_000 })).toBeTruthy();
    expect(requested(/GET \/v1\/bookmarks\/duplicates/)).toHaveLength(1);
  });

  it('says so when the rest of the search is gone (the background restarted), and Merge all never merges only the groups shown', async () => {
    const now = server.t.server.deps.clock.now();
    const ids = insertBookmarks(server.t, server.db, server.u.userId, Array.from({ length: 40 }, (_, i) => ({ createdAt: now - i * 1000 })));
    const pair = server.db.prepare('UPDATE bookmarks SET url_key = ? WHERE id = ?');
    server.db.transaction(() => ids.forEach((id, i) => pair.run(`gone.example/${String(Math.floor(i / 2)).padStart(2, '0')}`, id)))();
    server.bg.requests.length = 0;
    // What a restarted background answers: it no longer holds the search.
    const spy = vi.spyOn(server.bg.services.duplicates, 'more').mockImplementation(() => {
      throw new ClientError('SEARCH_GONE', 'The rest of this duplicate search is no longer held');
    });
    try {
      show();
      expect(await screen.findByRole('group', { name: 'Duplicates of gone.example/00' })).toBeTruthy();
      expect((await screen.findByRole('alert')).textContent).toBe('Only the first results of this search could be shown.Search again to see them all.');
      expect(screen.getByRole('button', { name: 'Merge all 20 groups' })).toHaveProperty('disabled', true);
      expect(requested(/PATCH|POST/)).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }
  });
});
