import { type InfiniteData, type QueryClient, type QueryKey, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { BookmarkSort } from '../../lib/api/bookmarks.ts';
import type { BrowsePage } from '../../lib/messaging/library-replies.ts';
import type { BrowseSource } from '../../lib/messaging/library-requests.ts';
import { collectionsCacheItem, tagsCacheItem } from '../../lib/storage/items.ts';
import { type CollectionTreeEntry, firstPageItem, smartFoldersCacheItem } from '../../lib/storage/library-items.ts';
import { readKept } from '../../lib/storage/early-reads.ts';
import type { TypedItem } from '../../lib/storage/typed-item.ts';
import { budgetRetry } from './budget-retry.ts';
import { keys } from './query-keys.ts';
import { sendLibrary } from './send.ts';

/**
 * A list the background keeps: its copy is shown at once, read straight from
 * storage (no round trip through the background, busy with the refresh; the
 * options page's early script has mostly read it already), then,
 * once per page load, the server's is asked for and replaces it (a change made
 * elsewhere shows). Without a kept copy, the background fetches it. A view
 * whose own opening request matters more holds the refresh back with
 * `refreshNow` false until that request is answered.
 */
function useKeptList<T>(queryKey: QueryKey, kept: TypedItem<{ items: T } | null>, list: (refresh: boolean) => Promise<T>, refreshNow: boolean) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!refreshNow) return;
    const name = JSON.stringify(queryKey);
    if (refreshed.has(name)) return;
    refreshed.add(name);
    // The kept copy stays when this fails; the query itself shows any error.
    void list(true)
      .then((data) => qc.setQueryData(queryKey, data))
      .catch(() => undefined);
  }, [list, qc, queryKey, refreshNow]);
  return useQuery({ queryKey, queryFn: async () => (await readKept(kept))?.items ?? list(false) });
}

/** The lists asked of the server since this page loaded. */
const refreshed = new Set<string>();

export const useCollections = (refreshNow = true) => useKeptList(keys.collections, collectionsCacheItem, (refresh) => sendLibrary('listCollections', { refresh }), refreshNow);
/** The collections the options page opened with, their tree's fields only (entrypoints/options/opening.ts): shown until the whole list is read. */
export const useOpeningCollections = () => useQueryClient().getQueryData<CollectionTreeEntry[]>(keys.collectionTree);
export const useTags = () => useKeptList(keys.tags, tagsCacheItem, (refresh) => sendLibrary('listTags', { refresh }), true);
export const useSmartFolders = () => useKeptList(keys.smartFolders, smartFoldersCacheItem, (refresh) => sendLibrary('listSmartFolders', { refresh }), true);

/**
 * A list of the library in the order asked, one page a request, the next asked for when the user
 * scrolls near the end; not asked for while the order is not known yet (undefined). In the default
 * order, the first page the background kept shows at once; the server's replaces it when it differs.
 */
export function useBrowse(source: BrowseSource, sort: BookmarkSort | undefined) {
  const qc = useQueryClient();
  const queryKey = keys.browse(source, sort);
  const keptOrder = sort === 'newest';
  const list = useInfiniteQuery({
    queryKey,
    queryFn: async ({ pageParam }) => {
      if (pageParam !== null) return sendLibrary('browseBookmarks', { source, sort, cursor: pageParam });
      // The kept first page straight from storage: no round trip through the background before the first rows.
      const kept = keptOrder ? await firstPageItem(JSON.stringify(source)).get() : null;
      return kept ? keptPage(kept) : sendLibrary('browseBookmarks', { source, sort });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    enabled: sort !== undefined,
    ...budgetRetry,
  });
  const fromKept = list.data?.pages[0]?.kept === true;
  const sourceKey = JSON.stringify(source);
  useEffect(() => {
    if (!fromKept) return;
    const asked = qc.getQueryState(queryKey)?.dataUpdatedAt;
    void sendLibrary('browseBookmarks', { source })
      .then((fresh) => {
        // A change the user made meanwhile is newer than this answer: it stays.
        if (qc.getQueryState(queryKey)?.dataUpdatedAt !== asked) return;
        const now = qc.getQueryData<InfiniteData<BrowsePage, string | null>>(queryKey);
        if (JSON.stringify(now?.pages[0]?.bookmarks) !== JSON.stringify(fresh.bookmarks)) qc.setQueryData(queryKey, { pages: [fresh], pageParams: [null] });
      })
      .catch(() => undefined); // the kept page stays; the next open tries again
    // Once per list shown: the source (as its key) says which list it is.
  }, [fromKept, sourceKey]);
  return list;
}

/** A kept first page as the list's first page, marked as kept (useBrowse then asks the server's). */
const keptPage = (kept: BrowsePage): BrowsePage => ({ bookmarks: kept.bookmarks, cursor: kept.cursor, limitNote: kept.limitNote, kept: true });

/**
 * A page's opening: a list's kept first page (the early script's read of it, when there was one) put in the
 * query cache where useBrowse looks in the default order, so that the list's first render has its rows.
 * Answers the page's storage key and version, or null when none is kept.
 */
export async function putKeptFirstPage(queryClient: QueryClient, source: BrowseSource, win: Window = window): Promise<{ key: string; version: number } | null> {
  const item = firstPageItem(JSON.stringify(source));
  const kept = await readKept(item, win);
  if (!kept) return null;
  queryClient.setQueryData(keys.browse(source), { pages: [keptPage(kept)], pageParams: [null] });
  return { key: item.key, version: kept.keptAt };
}

export const useSavedPage = (url: string | null) =>
  useQuery({
    queryKey: keys.savedPage(url ?? ''),
    queryFn: () => sendLibrary('lookupUrl', { url: url ?? '' }),
    enabled: url !== null && /^https?:\/\//.test(url),
  });
