import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { LinkStatus } from '../../../lib/api/bookmarks.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';

/** How many bookmarks the link checker gave each status (a status with none is absent). */
export function useLinkStatusCounts() {
  return useQuery({ queryKey: keys.linkStatusCounts, queryFn: () => sendLibrary('linkStatusCounts', {}) });
}

/** One link status's bookmarks, a page at a time: shared by its group and by the watch on a re-check. */
export const linkStatusList = (linkStatus: LinkStatus) =>
  infiniteQueryOptions({
    queryKey: keys.byLinkStatus(linkStatus),
    queryFn: ({ pageParam }) => sendLibrary('bookmarksByLinkStatus', pageParam === null ? { linkStatus } : { linkStatus, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });

/** The bookmarks of one link status; asked only once the group has any. */
export function useBookmarksByLinkStatus(linkStatus: LinkStatus, enabled: boolean) {
  const list = useInfiniteQuery({ ...linkStatusList(linkStatus), enabled });
  return { list, bookmarks: list.data?.pages.flatMap((page) => page.bookmarks) ?? [] };
}
