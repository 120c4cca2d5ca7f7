import type { QueryClient } from '@tanstack/react-query';
import { keys } from '../../components/library/query-keys.ts';
import { readKept } from '../../lib/storage/early-reads.ts';
import { type PanelPlace, firstPageItem, panelPlaceItem } from '../../lib/storage/library-items.ts';
import { noteOpening } from './opening-reads.ts';

export interface Opening {
  place: PanelPlace | null;
  /** The kept first page the list opens with: its storage key and version (keptAt). */
  keptPage: { key: string; version: number } | null;
}

/**
 * What the panel opens on: the place it was left at and, for a list, the first
 * page kept of it, put in the query cache so that the list's first rows need no
 * further wait. sidepanel-early.js has mostly read both by now.
 */
export async function readOpening(queryClient: QueryClient, win: Window = window): Promise<Opening> {
  const place = await readKept(panelPlaceItem, win);
  noteOpening(win, place);
  if (place?.kind !== 'list') return { place, keptPage: null };
  const item = firstPageItem(JSON.stringify(place.source));
  const kept = await readKept(item, win);
  if (!kept) return { place, keptPage: null };
  const page = { bookmarks: kept.bookmarks, cursor: kept.cursor, limitNote: kept.limitNote, kept: true };
  queryClient.setQueryData(keys.browse(place.source), { pages: [page], pageParams: [null] });
  return { place, keptPage: { key: item.key, version: kept.keptAt } };
}
