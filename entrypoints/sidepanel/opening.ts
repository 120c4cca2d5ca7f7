import type { QueryClient } from '@tanstack/react-query';
import { keys } from '../../components/library/query-keys.ts';
import { readKept } from '../../lib/storage/early-reads.ts';
import { type PanelPlace, firstPageItem, panelPlaceItem } from '../../lib/storage/library-items.ts';
import { noteOpening } from './opening-reads.ts';

/**
 * What the panel opens on: the place it was left at and, for a list, the first
 * page kept of it, put in the query cache so that the list's first rows need no
 * further wait. sidepanel-early.js has mostly read both by now.
 */
export async function readOpening(queryClient: QueryClient, win: Window = window): Promise<PanelPlace | null> {
  const place = await readKept(panelPlaceItem, win);
  noteOpening(win, place);
  if (place?.kind === 'list') {
    const kept = await readKept(firstPageItem(JSON.stringify(place.source)), win);
    if (kept) {
      const page = { bookmarks: kept.bookmarks, cursor: kept.cursor, limitNote: kept.limitNote, kept: true };
      queryClient.setQueryData(keys.browse(place.source), { pages: [page], pageParams: [null] });
    }
  }
  return place;
}
