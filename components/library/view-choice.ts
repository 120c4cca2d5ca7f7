import { useEffect, useState } from 'react';
import { type LibraryView, libraryViewsItem } from '../../lib/storage/library-items.ts';
import type { Place } from './SourceNav.tsx';

/** What a place opens in until the user picks a view for it: covers, as a library browsed by eye. */
export const DEFAULT_VIEW: LibraryView = 'cards';

/** The key a place's view is kept under: search results are one place whatever the words. */
export const viewKeyOf = (place: Place | 'search'): string =>
  place === 'search' ? 'search' : place.kind === 'list' ? `list:${JSON.stringify(place.source)}` : `smart:${place.id}`;

/**
 * The view the user chose for a place, kept in extension storage so that each place opens as it was left;
 * undefined until the kept choices are read (the list waits rather than showing one view and then another).
 */
export function useViewChoice(key: string): [LibraryView | undefined, (view: LibraryView) => void] {
  const [kept, setKept] = useState<Record<string, LibraryView> | undefined>(undefined);
  useEffect(() => {
    void libraryViewsItem.get().then((read) => setKept((now) => now ?? read));
  }, []);
  const choose = (view: LibraryView) => {
    const next = { ...kept, [key]: view };
    setKept(next);
    void libraryViewsItem.set(next);
  };
  return [kept === undefined ? undefined : (kept[key] ?? DEFAULT_VIEW), choose];
}
