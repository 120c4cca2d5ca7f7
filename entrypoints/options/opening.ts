import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { keys } from '../../components/library/query-keys.ts';
import { readKept } from '../../lib/storage/early-reads.ts';
import { tagsCacheItem } from '../../lib/storage/items.ts';
import { collectionTreeView, smartFoldersCacheItem } from '../../lib/storage/library-items.ts';
import type { ReadItem } from '../../lib/storage/typed-item.ts';
import { SECTION_READS } from './opening-reads.ts';

type KeptList = readonly [ReadItem<{ items: unknown[] } | null>, QueryKey];

/** Each kept list the sections open with, and its query (components/library/queries.ts). */
const KEPT_LISTS: readonly KeptList[] = [
  // The tree's fields only: the section reads the whole list after its first render.
  [collectionTreeView, keys.collectionTree],
  [tagsCacheItem, keys.tags],
  [smartFoldersCacheItem, keys.smartFolders],
];

/**
 * The kept list of the section in the page's address, put in the query cache
 * before the first render, so that the section's tree is in that render:
 * options-early.js has mostly read it by now.
 */
export async function readOpening(queryClient: QueryClient, win: Window = window): Promise<void> {
  const key = SECTION_READS[win.location.hash];
  const list = KEPT_LISTS.find(([item]) => item.key === key);
  if (!list) return;
  const [item, queryKey] = list;
  const kept = await readKept(item, win);
  if (kept) queryClient.setQueryData(queryKey, kept.items);
}
