import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { recentSearchesItem, withRecent } from '../../../lib/storage/search-items.ts';
import { keys } from '../query-keys.ts';

/** The searches run last (extension storage, checked on read), with a way to add one and to clear them. */
export function useRecentSearches() {
  const qc = useQueryClient();
  const recent = useQuery({ queryKey: keys.recentSearches, queryFn: () => recentSearchesItem.get() });
  const save = useMutation({
    mutationFn: async (next: (list: string[]) => string[]) => {
      const list = next(await recentSearchesItem.get());
      await recentSearchesItem.set(list);
      return list;
    },
    onSuccess: (list) => qc.setQueryData(keys.recentSearches, list),
  });
  return {
    list: recent.data ?? [],
    remember: (text: string) => save.mutate((list) => withRecent(list, text)),
    clear: () => save.mutate(() => []),
  };
}
