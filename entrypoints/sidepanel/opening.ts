import type { QueryClient } from '@tanstack/react-query';
import { keys } from '../../components/library/query-keys.ts';
import { type PanelPlace, firstPageItem, panelPlaceItem } from '../../lib/storage/library-items.ts';

/**
 * What the panel opens on, read while React starts: the place it was left at
 * and, for a list, the first page kept of it, put in the query cache so that the
 * list's first rows need no further wait.
 */
export async function readOpening(queryClient: QueryClient): Promise<PanelPlace | null> {
  const place = await panelPlaceItem.get();
  if (place?.kind === 'list') {
    const kept = await firstPageItem(JSON.stringify(place.source)).get();
    if (kept) {
      const page = { bookmarks: kept.bookmarks, cursor: kept.cursor, limitNote: kept.limitNote, kept: true };
      queryClient.setQueryData(keys.browse(place.source), { pages: [page], pageParams: [null] });
    }
  }
  return place;
}
