import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { keys } from '../../components/library/query-keys.ts';
import { keptChoicesQuery } from '../../components/library/view-choice.ts';
import { readOpening as readOptionsOpening } from '../../entrypoints/options/opening.ts';
import { startOpeningReads as startOptionsReads } from '../../entrypoints/options/opening-reads.ts';
import { readOpening as readLibraryOpening } from '../../entrypoints/library/opening.ts';
import { startOpeningReads as startLibraryReads } from '../../entrypoints/library/opening-reads.ts';
import { readOpening } from '../../entrypoints/sidepanel/opening.ts';
import { startOpeningReads as startPanelReads } from '../../entrypoints/sidepanel/opening-reads.ts';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { savedBookmark } from './support/fixtures.ts';
import { readEarly, readKept } from '../../lib/storage/early-reads.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { collectionsCacheItem, tagsCacheItem } from '../../lib/storage/items.ts';
import { type PanelPlace, firstPageItem, librarySortsItem, libraryViewsItem, panelPlaceItem } from '../../lib/storage/library-items.ts';

const bookmark = (id: string): Bookmark => savedBookmark({ id, url: `https://example.com/${id}`, title: `Title ${id}` });

const ALL: PanelPlace = { kind: 'list', source: { kind: 'all' }, title: 'All bookmarks' };
const FAVORITES: PanelPlace = { kind: 'list', source: { kind: 'favorites' }, title: 'Favourites' };

async function keep(place: PanelPlace & { kind: 'list' }, ids: string[]): Promise<void> {
  await firstPageItem(JSON.stringify(place.source)).set({ bookmarks: ids.map(bookmark), cursor: 'next', limitNote: null, keptAt: 1 });
}

/** A window of the test's own, at an address. */
const pageAt = (hash = ''): Window => ({ location: { hash } }) as Window;

/** The window with a localStorage of the test's own (another window's, to stand for the same page loaded again). */
function withLocalStorage(win: Window, storage?: Storage): Window & { localStorage: Storage } {
  const items = new Map<string, string>();
  const own = storage ?? ({ getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) } as Storage);
  return Object.assign(win, { localStorage: own });
}

/** sidepanel-early.js's reads on a window of the test's own, once they have answered. */
async function panelReadEarly(): Promise<Window> {
  const win = pageAt();
  await startPanelReads(win);
  await vi.waitFor(() => expect(fakeBrowser.storage.local.get).toHaveBeenCalledTimes(2));
  return win;
}

const cachedIds = (client: QueryClient, place: PanelPlace & { kind: 'list' }) =>
  client.getQueryData<{ pages: { bookmarks: Bookmark[]; kept: boolean }[] }>(keys.browse(place.source))?.pages[0]?.bookmarks.map((b) => b.id);

beforeEach(() => {
  fakeBrowser.reset();
  vi.restoreAllMocks();
});

const collection = (id: string, parentId: string | null = null): Collection => ({
  id,
  name: `Name ${id}`,
  icon: '📁',
  color: '#16a34a',
  parentId,
  depth: parentId ? 1 : 0,
  order: 0,
  bookmarkCount: 3,
  notes: 'notes',
  branding: null,
  shareSlug: null,
  isShared: false,
  createdAt: '2025-01-01T00:00:00.000Z',
});

const tags = { items: [{ id: 'tag_1', name: 'dev', color: null, parentId: null, count: 2, createdAt: '2025-01-01T00:00:00.000Z' }], fetchedAt: 1 };

describe('the side panel’s opening', () => {
  beforeEach(() => {
    vi.spyOn(fakeBrowser.storage.local, 'get');
  });

  it('takes the place and its kept first page from sidepanel-early.js’s reads, reading storage no more', async () => {
    await panelPlaceItem.set(ALL);
    await keep(ALL, ['bm_1', 'bm_2']);
    const win = await panelReadEarly();
    const client = new QueryClient();

    expect((await readOpening(client, win)).place).toEqual(ALL);
    expect(cachedIds(client, ALL)).toEqual(['bm_1', 'bm_2']);
    expect(fakeBrowser.storage.local.get).toHaveBeenCalledTimes(2);
  });

  it('reads the place and the first page it opened on last in one storage request, noted in the page’s own storage', async () => {
    await panelPlaceItem.set(ALL);
    await keep(ALL, ['bm_1']);
    const first = withLocalStorage(pageAt());
    await readOpening(new QueryClient(), first);

    const win = withLocalStorage(pageAt(), first.localStorage);
    vi.mocked(fakeBrowser.storage.local.get).mockClear();
    await startPanelReads(win);
    const client = new QueryClient();
    expect((await readOpening(client, win)).place).toEqual(ALL);
    expect(cachedIds(client, ALL)).toEqual(['bm_1']);
    expect(fakeBrowser.storage.local.get).toHaveBeenCalledTimes(1);
  });

  it('reads the first page of the place stored, not of the one noted, when the place changed elsewhere, and notes the new one', async () => {
    await panelPlaceItem.set(ALL);
    await keep(ALL, ['bm_all']);
    await keep(FAVORITES, ['bm_fav']);
    const storage = withLocalStorage(pageAt()).localStorage;
    await readOpening(new QueryClient(), withLocalStorage(pageAt(), storage));
    await panelPlaceItem.set(FAVORITES);

    const win = withLocalStorage(pageAt(), storage);
    vi.mocked(fakeBrowser.storage.local.get).mockClear();
    await startPanelReads(win);
    await vi.waitFor(() => expect(fakeBrowser.storage.local.get).toHaveBeenCalledTimes(2));
    const client = new QueryClient();
    expect((await readOpening(client, win)).place).toEqual(FAVORITES);
    expect(cachedIds(client, FAVORITES)).toEqual(['bm_fav']);
    expect(cachedIds(client, ALL)).toBeUndefined();
    expect(storage.getItem('shelf.panelOpening')).toBe(`local:firstPage:${JSON.stringify(FAVORITES.source)}`);
  });

  it('reads storage itself when no early script ran', async () => {
    await panelPlaceItem.set(ALL);
    await keep(ALL, ['bm_3']);
    const client = new QueryClient();
    expect((await readOpening(client, pageAt())).place).toEqual(ALL);
    expect(cachedIds(client, ALL)).toEqual(['bm_3']);
  });

  it('reads the first page of the place it checked, not one the early script read for another list', async () => {
    await panelPlaceItem.set(FAVORITES);
    await keep(ALL, ['bm_all']);
    await keep(FAVORITES, ['bm_fav']);
    const win = pageAt();
    void readEarly(win, 'local:sidePanelPlace');
    void readEarly(win, `local:firstPage:${JSON.stringify(ALL.source)}`);
    const client = new QueryClient();

    expect((await readOpening(client, win)).place).toEqual(FAVORITES);
    expect(cachedIds(client, FAVORITES)).toEqual(['bm_fav']);
    expect(cachedIds(client, ALL)).toBeUndefined();
  });

  it('opens on the library when the place read early does not fit the schema, and shows no page from it', async () => {
    await fakeBrowser.storage.local.set({ sidePanelPlace: { kind: 'list', source: { kind: 'nowhere' }, title: 7 } });
    const win = await panelReadEarly();
    const client = new QueryClient();

    expect((await readOpening(client, win)).place).toBeNull();
    expect(client.getQueryCache().findAll({ queryKey: keys.bookmarkLists })).toHaveLength(0);
  });

  it('opens a list sorted otherwise than its kept first page without that page, the orders read in the early request', async () => {
    await panelPlaceItem.set(ALL);
    await keep(ALL, ['bm_1']);
    await librarySortsItem.set({ 'list:{"kind":"all"}': 'title' });
    const win = await panelReadEarly();
    const client = new QueryClient();

    expect(await readOpening(client, win)).toEqual({ place: ALL, keptPage: null });
    expect(cachedIds(client, ALL)).toBeUndefined();
    // The list's query finds the order there: the early script's two reads, and none more.
    expect(client.getQueryData(keptChoicesQuery(librarySortsItem).queryKey)).toEqual({ 'list:{"kind":"all"}': 'title' });
    expect(fakeBrowser.storage.local.get).toHaveBeenCalledTimes(2);
  });

  it('keeps no page that does not fit the schema, and still opens on the place', async () => {
    await panelPlaceItem.set(ALL);
    await fakeBrowser.storage.local.set({ [`firstPage:${JSON.stringify(ALL.source)}`]: JSON.stringify({ bookmarks: [{ id: 'bm_broken' }], cursor: null, limitNote: null, keptAt: 1 }) });
    const win = await panelReadEarly();
    const client = new QueryClient();

    expect((await readOpening(client, win)).place).toEqual(ALL);
    expect(cachedIds(client, ALL)).toBeUndefined();
  });
});

describe('the library page’s opening', () => {
  beforeEach(() => {
    vi.spyOn(fakeBrowser.storage.local, 'get');
  });

  /** library-early.js's read on a window of the test's own, once it has answered. */
  async function libraryReadEarly(): Promise<Window> {
    const win = pageAt();
    startLibraryReads(win);
    await vi.waitFor(() => expect(fakeBrowser.storage.local.get).toHaveBeenCalledTimes(1));
    return win;
  }

  it('takes the views, the orders and All bookmarks’ kept first page from library-early.js’s one storage request', async () => {
    await keep(ALL, ['bm_1', 'bm_2']);
    await libraryViewsItem.set({ 'list:{"kind":"all"}': 'grid' });
    const win = await libraryReadEarly();
    const client = new QueryClient();

    await readLibraryOpening(client, win);
    expect(cachedIds(client, ALL)).toEqual(['bm_1', 'bm_2']);
    expect(client.getQueryData(keptChoicesQuery(libraryViewsItem).queryKey)).toEqual({ 'list:{"kind":"all"}': 'grid' });
    expect(client.getQueryData(keptChoicesQuery(librarySortsItem).queryKey)).toEqual({});
    expect(fakeBrowser.storage.local.get).toHaveBeenCalledTimes(1);
  });

  it('opens All bookmarks sorted otherwise without its kept first page', async () => {
    await keep(ALL, ['bm_1']);
    await librarySortsItem.set({ 'list:{"kind":"all"}': 'title' });
    const win = await libraryReadEarly();
    const client = new QueryClient();

    await readLibraryOpening(client, win);
    expect(cachedIds(client, ALL)).toBeUndefined();
    expect(client.getQueryData(keptChoicesQuery(librarySortsItem).queryKey)).toEqual({ 'list:{"kind":"all"}': 'title' });
  });

  it('reads storage itself when no early script ran, and a choice that does not fit the schema counts as none', async () => {
    await keep(ALL, ['bm_3']);
    await fakeBrowser.storage.local.set({ libraryViews: { 'list:{"kind":"all"}': 'mosaic' } });
    const client = new QueryClient();

    await readLibraryOpening(client, pageAt());
    expect(cachedIds(client, ALL)).toEqual(['bm_3']);
    expect(client.getQueryData(keptChoicesQuery(libraryViewsItem).queryKey)).toEqual({});
  });
});

describe('reads an early script started', () => {

  it('are taken once: a later read of the item is a fresh one', async () => {
    await tagsCacheItem.set(tags);
    const win = pageAt('#tags');
    startOptionsReads(win);
    await tagsCacheItem.set({ ...tags, fetchedAt: 2 });

    expect((await readKept(tagsCacheItem, win))?.fetchedAt).toBe(1);
    expect((await readKept(tagsCacheItem, win))?.fetchedAt).toBe(2);
  });

  it('start for the options section in the address only', async () => {
    await tagsCacheItem.set(tags);
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    startOptionsReads(pageAt('#trash'));
    startOptionsReads(pageAt(''));
    expect(get).not.toHaveBeenCalled();
    startOptionsReads(pageAt('#tags'));
    expect(get).toHaveBeenCalledWith('tagsCache');
  });

  it('leave the page to read for itself when they failed', async () => {
    await tagsCacheItem.set(tags);
    const win = pageAt();
    vi.spyOn(fakeBrowser.storage.local, 'get').mockRejectedValueOnce(new Error('storage is gone'));
    void readEarly(win, 'local:tagsCache');
    expect(await readKept(tagsCacheItem, win)).toEqual(tags);
  });
});

describe('the options page’s opening', () => {

  it('puts the kept list of the section in the address in the query cache, from options-early.js’s read', async () => {
    await tagsCacheItem.set(tags);
    const win = pageAt('#tags');
    startOptionsReads(win);
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    const client = new QueryClient();

    await readOptionsOpening(client, win);
    expect(client.getQueryData(keys.tags)).toEqual(tags.items);
    expect(get).not.toHaveBeenCalled();
  });

  it('opens Collections on the tree’s fields of the kept collections only, and leaves the whole list to its query', async () => {
    await collectionsCacheItem.set({ items: [collection('col_a'), collection('col_b', 'col_a')], fetchedAt: 1 });
    const win = pageAt('#collections');
    startOptionsReads(win);
    const client = new QueryClient();

    await readOptionsOpening(client, win);
    expect(client.getQueryData(keys.collectionTree)).toEqual([
      { id: 'col_a', parentId: null, name: 'Name col_a', icon: '📁', color: '#16a34a', bookmarkCount: 3 },
      { id: 'col_b', parentId: 'col_a', name: 'Name col_b', icon: '📁', color: '#16a34a', bookmarkCount: 3 },
    ]);
    expect(client.getQueryData(keys.collections)).toBeUndefined();
    // The early read was the opening's: the whole list is read afresh, through the whole schema.
    expect((await readKept(collectionsCacheItem, win))?.items).toEqual([collection('col_a'), collection('col_b', 'col_a')]);
  });

  it('opens Collections on no tree when a tree field of the kept list does not fit, and the whole list refuses a field the tree does not check', async () => {
    const kept = (items: unknown[]) => fakeBrowser.storage.local.set({ collectionsCache: JSON.stringify({ items, fetchedAt: 1 }) });
    await kept([collection('col_a'), { ...collection('col_b'), bookmarkCount: 'many' }]);
    const client = new QueryClient();
    await readOptionsOpening(client, pageAt('#collections'));
    expect(client.getQueryCache().getAll()).toHaveLength(0);

    await kept([{ ...collection('col_a'), createdAt: 7 }]);
    await readOptionsOpening(client, pageAt('#collections'));
    expect(client.getQueryData(keys.collectionTree)).toEqual([expect.objectContaining({ id: 'col_a' })]);
    expect(await collectionsCacheItem.get()).toBeNull();
  });

  it('puts nothing there for a section without a kept list, or when none is kept', async () => {
    await tagsCacheItem.set(tags);
    for (const hash of ['', '#trash', '#collections']) {
      const client = new QueryClient();
      await readOptionsOpening(client, pageAt(hash));
      expect(client.getQueryCache().getAll()).toHaveLength(0);
    }
  });
});
