import { useQuery } from '@tanstack/react-query';
import { budgetRetry } from './budget-retry.ts';
import { keys } from './query-keys.ts';
import { sendLibrary } from './send.ts';

/** Each site of the library with how many bookmarks it has, most first (the API's order). */
export const useDomains = () => useQuery({ queryKey: keys.domains, queryFn: () => sendLibrary('listDomains', {}), ...budgetRetry });

/** The library's totals: all, favourites, unsorted, without tags, per type. */
export const useStats = () => useQuery({ queryKey: keys.stats, queryFn: () => sendLibrary('bookmarkStats', {}), ...budgetRetry });
