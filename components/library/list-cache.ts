import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { BrowseSource } from '../../lib/messaging/library-requests.ts';
import type { BrowsePage, SmartFolderView } from '../../lib/messaging/library-replies.ts';
import { keys } from './query-keys.ts';

/** The shapes of the cached bookmark lists: paged listings, search results and smart-folder views. */
type ListData = InfiniteData<BrowsePage, string | null> | Bookmark[] | SmartFolderView;
export type ListSnapshot = Array<[QueryKey, ListData | undefined]>;

/** Whether a bookmark, as it is now, still belongs in the list cached under `key` (a moved one leaves its old collection). */
function belongs(key: QueryKey, b: Bookmark): boolean {
  if (key[1] !== 'browse') return true;
  const source = key[2] as BrowseSource;
  switch (source.kind) {
    case 'favorites':
      return b.isFavorite;
    case 'unsorted':
      return b.collectionId === null;
    case 'collection':
      return b.collectionId === source.id;
    default:
      return true;
  }
}

function mapBookmarks(data: ListData, map: (b: Bookmark) => Bookmark | null): ListData {
  const apply = (list: Bookmark[]) => list.flatMap((b) => map(b) ?? []);
  if (Array.isArray(data)) return apply(data);
  if ('folderId' in data) return { ...data, bookmarks: apply(data.bookmarks) };
  return { ...data, pages: data.pages.map((page) => ({ ...page, bookmarks: apply(page.bookmarks) })) };
}

/**
 * Applies a change to every cached list at once, so that a rename or a move
 * shows everywhere without a request; `change` answers the bookmark as it is
 * now, or null when it is gone. Answers what was there, to roll back.
 */
export function changeBookmarks(qc: QueryClient, ids: ReadonlySet<string>, change: (b: Bookmark) => Bookmark | null): ListSnapshot {
  const snapshot = qc.getQueriesData<ListData>({ queryKey: keys.bookmarkLists });
  for (const [key, data] of snapshot) {
    // Under the same key prefix are the counts (stats), which are no list: they are asked again instead.
    if (!data || !(Array.isArray(data) || 'folderId' in data || 'pages' in data)) continue;
    qc.setQueryData<ListData>(
      key,
      mapBookmarks(data, (b) => {
        if (!ids.has(b.id)) return b;
        const changed = change(b);
        return changed && belongs(key, changed) ? changed : null;
      }),
    );
  }
  return snapshot;
}

export function rollBack(qc: QueryClient, snapshot: ListSnapshot): void {
  for (const [key, data] of snapshot) qc.setQueryData(key, data);
}
