import type { QueryClient } from '@tanstack/react-query';
import { putKeptFirstPage } from '../../components/library/queries.ts';
import { readKept } from '../../lib/storage/early-reads.ts';
import { DEFAULT_SORT, putKeptChoices, viewKeyOf } from '../../components/library/view-choice.ts';
import { type PanelPlace, librarySortsItem, panelPlaceItem } from '../../lib/storage/library-items.ts';
import { noteOpening } from './opening-reads.ts';

export interface Opening {
  place: PanelPlace | null;
  /** The kept first page the list opens with: its storage key and version (keptAt). */
  keptPage: { key: string; version: number } | null;
}

/**
 * What the panel opens on: the place it was left at and, for a list, the first
 * page kept of it, put in the query cache so that the list's first rows need no
 * further wait. sidepanel-early.js has mostly read both by now. The lists' orders
 * are read beside them: a list sorted otherwise than its kept page opens without it.
 */
export async function readOpening(queryClient: QueryClient, win: Window = window): Promise<Opening> {
  const [place, sorts] = await Promise.all([readKept(panelPlaceItem, win), putKeptChoices(queryClient, librarySortsItem, win)]);
  noteOpening(win, place);
  if (place?.kind !== 'list' || (sorts[viewKeyOf(place)] ?? DEFAULT_SORT) !== DEFAULT_SORT) return { place, keptPage: null };
  return { place, keptPage: await putKeptFirstPage(queryClient, place.source, win) };
}
