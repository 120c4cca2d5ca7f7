import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BookmarkSort } from '../../lib/api/bookmarks.ts';
import type { BrowseSource } from '../../lib/messaging/library-requests.ts';
import { type LibraryView, librarySortsItem, libraryViewsItem } from '../../lib/storage/library-items.ts';
import { readKept } from '../../lib/storage/early-reads.ts';
import type { TypedItem } from '../../lib/storage/typed-item.ts';
import { keys } from './query-keys.ts';
import type { Place } from './SourceNav.tsx';

/** What a place opens in until the user picks a view for it: covers, as a library browsed by eye. */
export const DEFAULT_VIEW: LibraryView = 'cards';

/** The API's own order, and the one a list's kept first page is in. */
export const DEFAULT_SORT: BookmarkSort = 'newest';

/** The key a place's view and order are kept under: search results are one place whatever the words. */
export const viewKeyOf = (place: Place | 'search'): string =>
  place === 'search' ? 'search' : place.kind === 'list' ? `list:${JSON.stringify(place.source)}` : `smart:${place.id}`;

/** The lists the API sorts: a tag's bookmarks come in one order only. */
export const sortableSource = (source: BrowseSource): boolean => source.kind !== 'tag';

type Choices<T extends string> = TypedItem<Record<string, T>>;

/** Where a page's kept choices are read once and shared by every list that asks (the side panel reads them ahead). */
export const keptChoicesQuery = <T extends string>(item: Choices<T>) => ({ queryKey: keys.keptChoices(item.key), queryFn: () => item.get(), staleTime: Infinity });

/** A page's opening: the kept choices (the early script's read of them, when there was one) put where the lists look, and answered. */
export async function putKeptChoices<T extends string>(queryClient: QueryClient, item: Choices<T>, win: Window = window): Promise<Record<string, T>> {
  const kept = await readKept(item, win);
  queryClient.setQueryData(keptChoicesQuery(item).queryKey, kept);
  return kept;
}

/**
 * The choice the user made for a place, kept in extension storage so that each place opens as it was left;
 * undefined until the kept choices are read (the list waits rather than showing one way and then another).
 */
function useKeptChoice<T extends string>(item: Choices<T>, key: string, fallback: T): [T | undefined, (value: T) => void] {
  const qc = useQueryClient();
  const kept = useQuery(keptChoicesQuery(item));
  const choose = (value: T) => {
    const next = { ...qc.getQueryData<Record<string, T>>(keptChoicesQuery(item).queryKey), [key]: value };
    qc.setQueryData(keptChoicesQuery(item).queryKey, next);
    void item.set(next);
  };
  return [kept.data === undefined ? undefined : (kept.data[key] ?? fallback), choose];
}

export const useViewChoice = (key: string) => useKeptChoice(libraryViewsItem, key, DEFAULT_VIEW);
export const useSortChoice = (key: string) => useKeptChoice(librarySortsItem, key, DEFAULT_SORT);
