import type { QueryClient } from '@tanstack/react-query';
import { keys } from '../../components/library/query-keys.ts';
import { type PanelPlace, firstPageItem, panelPlaceItem } from '../../lib/storage/library-items.ts';
import { type EarlyOpening, takeEarlyOpening } from './early-opening.ts';

/**
 * What the panel opens on: the place it was left at and, for a list, the first
 * page kept of it, put in the query cache so that the list's first rows need no
 * further wait. Taken from sidepanel-early.js's read when it ran (checked here
 * with the items' schemas), from storage otherwise.
 */
export async function readOpening(queryClient: QueryClient, early: Promise<EarlyOpening> | undefined = takeEarlyOpening(window)): Promise<PanelPlace | null> {
  const read = await early?.catch(() => undefined);
  const place = read ? panelPlaceItem.from(read.place) : await panelPlaceItem.get();
  if (place?.kind === 'list') {
    const source = JSON.stringify(place.source);
    const item = firstPageItem(source);
    const kept = read?.source === source ? item.from(read.firstPage) : await item.get();
    if (kept) {
      const page = { bookmarks: kept.bookmarks, cursor: kept.cursor, limitNote: kept.limitNote, kept: true };
      queryClient.setQueryData(keys.browse(place.source), { pages: [page], pageParams: [null] });
    }
  }
  return place;
}
