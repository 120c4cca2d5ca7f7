import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Bookmark, PatchBookmarkBody } from '../../lib/api/bookmarks.ts';
import { type ListSnapshot, changeBookmarks, rollBack } from './list-cache.ts';
import { keys } from './query-keys.ts';
import { sendLibrary } from './send.ts';

/** Counts shown beside collections, tags and the fixed lists (stats) change with any edit of a bookmark. */
const COUNTED = [keys.collections, keys.tags, keys.stats];

/**
 * What a row's quick actions do: each change shows at once in every list
 * (optimistically), is rolled back if the server refuses it, and is replaced
 * by the server's answer when it comes.
 */
export function useBookmarkActions() {
  const qc = useQueryClient();
  const settle = () => COUNTED.forEach((queryKey) => void qc.invalidateQueries({ queryKey }));

  const update = useMutation<Bookmark, Error, { id: string; patch: PatchBookmarkBody }, ListSnapshot>({
    mutationFn: ({ id, patch }) => sendLibrary('updateBookmark', { id, patch }),
    onMutate: ({ id, patch }) => changeBookmarks(qc, new Set([id]), (b) => ({ ...b, ...patch }) as Bookmark),
    onError: (_err, _input, snapshot) => snapshot && rollBack(qc, snapshot),
    onSuccess: (saved) => void changeBookmarks(qc, new Set([saved.id]), () => saved),
    onSettled: settle,
  });

  const trash = useMutation<Bookmark, Error, Bookmark, ListSnapshot>({
    mutationFn: (bookmark) => sendLibrary('trashBookmark', { id: bookmark.id }),
    onMutate: (bookmark) => changeBookmarks(qc, new Set([bookmark.id]), () => null),
    onError: (_err, _input, snapshot) => snapshot && rollBack(qc, snapshot),
    onSettled: settle,
  });

  const restore = useMutation({
    mutationFn: (bookmark: Bookmark) => sendLibrary('restoreBookmark', { id: bookmark.id }),
    // Where it comes back depends on each list's order: they are read again.
    onSuccess: () => void qc.invalidateQueries({ queryKey: keys.bookmarkLists }),
    onSettled: settle,
  });

  return { update, trash, restore };
}
