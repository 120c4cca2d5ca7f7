import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { LinkStatus } from '../../../lib/api/bookmarks.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';

/** How many bookmarks the link checker gave each status (a status with none is absent). */
export function useLinkStatusCounts() {
  return useQuery({ queryKey: keys.linkStatusCounts, queryFn: () => sendLibrary('linkStatusCounts', {}) });
}

/** The bookmarks of one link status, a page at a time; asked only once the group has any. */
export function useBookmarksByLinkStatus(linkStatus: LinkStatus, enabled: boolean) {
  const list = useInfiniteQuery({
    queryKey: keys.byLinkStatus(linkStatus),
    queryFn: ({ pageParam }) => sendLibrary('bookmarksByLinkStatus', pageParam === null ? { linkStatus } : { linkStatus, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    enabled,
  });
  return { list, bookmarks: list.data?.pages.flatMap((page) => page.bookmarks) ?? [] };
}
