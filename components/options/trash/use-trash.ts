import { type InfiniteData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { BrowsePage } from '../../../lib/messaging/library-replies.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';

type Pages = InfiniteData<BrowsePage, string | null>;

/**
 * A change to the trash: the bookmarks it takes out (`gone`) leave the list at
 * once and come back when it fails. The trash is not asked again after a
 * success (the list already shows what the server did, and asking again would
 * fetch every page loaded, dozens with a large trash); the other bookmark
 * lists are, since a restore adds to them.
 */
function useTrashChange<V, T>(send: (value: V) => Promise<T>, gone: (value: V, id: string) => boolean) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: send,
    onMutate: async (value: V) => {
      await qc.cancelQueries({ queryKey: keys.trash });
      const before = qc.getQueryData<Pages>(keys.trash);
      qc.setQueryData<Pages>(
        keys.trash,
        (data) => data && { ...data, pages: data.pages.map((page) => ({ ...page, bookmarks: page.bookmarks.filter((b) => !gone(value, b.id)) })) },
      );
      return { before };
    },
    onError: (_error, _value, context) => qc.setQueryData(keys.trash, context?.before),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.bookmarkLists }),
  });
}

/** The trash, a page at a time, and what can be done to it. */
export function useTrash() {
  const list = useInfiniteQuery({
    queryKey: keys.trash,
    queryFn: ({ pageParam }) => sendLibrary('listTrash', pageParam === null ? {} : { cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });
  const one = (value: string, id: string) => value === id;
  const restore = useTrashChange((id: string) => sendLibrary('restoreBookmark', { id }), one);
  const deleteForever = useTrashChange((id: string) => sendLibrary('deleteBookmark', { id }), one);
  const empty = useTrashChange(() => sendLibrary('emptyTrash', {}), () => true);
  return { list, restore, deleteForever, empty, bookmarks: list.data?.pages.flatMap((page) => page.bookmarks) ?? [] };
}
