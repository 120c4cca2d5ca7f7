import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { BrowseSource } from '../../lib/messaging/library-requests.ts';
import { keys } from './query-keys.ts';
import { sendLibrary } from './send.ts';

/** The background answers from its cache at once and refreshes it behind; `refresh` asks it to fetch now. */
export const useCollections = () => useQuery({ queryKey: keys.collections, queryFn: () => sendLibrary('listCollections', {}) });
export const useTags = () => useQuery({ queryKey: keys.tags, queryFn: () => sendLibrary('listTags', {}) });
export const useSmartFolders = () => useQuery({ queryKey: keys.smartFolders, queryFn: () => sendLibrary('listSmartFolders', {}) });

/** A list of the library, one page a request, the next asked for when the user scrolls near the end. */
export const useBrowse = (source: BrowseSource) =>
  useInfiniteQuery({
    queryKey: keys.browse(source),
    queryFn: ({ pageParam }) => sendLibrary('browseBookmarks', { source, ...(pageParam !== null && { cursor: pageParam }) }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });

export const useSearch = (q: string) =>
  useQuery({ queryKey: keys.search(q), queryFn: () => sendLibrary('searchBookmarks', { q }), enabled: q.length > 0, placeholderData: (previous) => previous });

export const useSavedPage = (url: string | null) =>
  useQuery({
    queryKey: keys.savedPage(url ?? ''),
    queryFn: async () => (await sendLibrary('lookupUrl', { url: url ?? '' })).bookmark,
    enabled: url !== null && /^https?:\/\//.test(url),
  });
