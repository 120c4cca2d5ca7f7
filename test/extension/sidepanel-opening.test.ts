import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { keys } from '../../components/library/query-keys.ts';
import { type EarlyOpening, startEarlyOpening, takeEarlyOpening } from '../../entrypoints/sidepanel/early-opening.ts';
import { readOpening } from '../../entrypoints/sidepanel/opening.ts';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type PanelPlace, firstPageItem, panelPlaceItem } from '../../lib/storage/library-items.ts';

const bookmark = (id: string): Bookmark => ({
  id,
  url: `https://example.com/${id}`,
  title: `Title ${id}`,
  description: '',
  excerpt: '',
  note: '',
  type: 'link',
  isFavorite: false,
  tags: [],
  collectionId: null,
  domain: 'example.com',
  favicon: '',
  coverImage: null,
  clickCount: 0,
  metadataStatus: 'complete',
  linkStatus: 'ok',
  lastCheckedAt: '2025-01-01T00:00:00.000Z',
  httpStatusCode: 200,
  createdAt: '2025-01-01T00:00:00.000Z',
});

const ALL: PanelPlace = { kind: 'list', source: { kind: 'all' }, title: 'All bookmarks' };
const FAVORITES: PanelPlace = { kind: 'list', source: { kind: 'favorites' }, title: 'Favourites' };

async function keep(place: PanelPlace & { kind: 'list' }, ids: string[]): Promise<void> {
  await firstPageItem(JSON.stringify(place.source)).set({ bookmarks: ids.map(bookmark), cursor: 'next', limitNote: null, keptAt: 1 });
}

/** The early script's read as sidepanel-early.js hands it over (on a window of the test's own), once it is done. */
async function earlyRead(): Promise<{ early: Promise<EarlyOpening> | undefined }> {
  const win = {} as Window;
  startEarlyOpening(win);
  const early = takeEarlyOpening(win);
  await early;
  return { early };
}

const cachedIds = (client: QueryClient, place: PanelPlace & { kind: 'list' }) =>
  client.getQueryData<{ pages: { bookmarks: Bookmark[]; kept: boolean }[] }>(keys.browse(place.source))?.pages[0]?.bookmarks.map((b) => b.id);

describe('the side panel’s opening', () => {
  beforeEach(() => fakeBrowser.reset());

  it('takes the place and its kept first page from the early script’s read, reading storage no more', async () => {
    await panelPlaceItem.set(ALL);
    await keep(ALL, ['bm_1', 'bm_2']);
    const { early } = await earlyRead();
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    const client = new QueryClient();

    expect(await readOpening(client, early)).toEqual(ALL);
    expect(cachedIds(client, ALL)).toEqual(['bm_1', 'bm_2']);
    expect(get).not.toHaveBeenCalled();
  });

  it('hands the early read over once', () => {
    const win = {} as Window;
    startEarlyOpening(win);
    expect(takeEarlyOpening(win)).toBeInstanceOf(Promise);
    expect(takeEarlyOpening(win)).toBeUndefined();
  });

  it('reads storage itself when there was no early read, or when it failed', async () => {
    await panelPlaceItem.set(ALL);
    await keep(ALL, ['bm_3']);
    for (const early of [undefined, Promise.reject(new Error('storage is gone'))]) {
      const client = new QueryClient();
      expect(await readOpening(client, early)).toEqual(ALL);
      expect(cachedIds(client, ALL)).toEqual(['bm_3']);
    }
  });

  it('reads the first page of the place it checked when the early read was of another list', async () => {
    await panelPlaceItem.set(ALL);
    await keep(ALL, ['bm_all']);
    await keep(FAVORITES, ['bm_fav']);
    const early = Promise.resolve<EarlyOpening>({ place: ALL, source: JSON.stringify(FAVORITES.source), firstPage: { bookmarks: [bookmark('bm_fav')], cursor: null, limitNote: null, keptAt: 1 } });
    const client = new QueryClient();

    expect(await readOpening(client, early)).toEqual(ALL);
    expect(cachedIds(client, ALL)).toEqual(['bm_all']);
  });

  it('opens on the library when what the early script read does not fit the schemas, and shows no page from it', async () => {
    await fakeBrowser.storage.local.set({ sidePanelPlace: { kind: 'list', source: { kind: 'nowhere' }, title: 7 } });
    const { early } = await earlyRead();
    const client = new QueryClient();

    expect(await readOpening(client, early)).toBeNull();
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });

  it('keeps no page that does not fit the schema, and still opens on the place', async () => {
    await panelPlaceItem.set(ALL);
    await fakeBrowser.storage.local.set({ [`firstPage:${JSON.stringify(ALL.source)}`]: { bookmarks: [{ id: 'bm_broken' }], cursor: null, limitNote: null, keptAt: 1 } });
    const { early } = await earlyRead();
    const client = new QueryClient();

    expect(await readOpening(client, early)).toEqual(ALL);
    expect(cachedIds(client, ALL)).toBeUndefined();
  });
});
