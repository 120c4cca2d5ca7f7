import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Bookmark } from '../../../lib/api/bookmarks.ts';
import type { BrowseSource } from '../../../lib/messaging/library-requests.ts';
import { type ParsedQuery, parseQuery } from '../../../lib/search/parse.ts';
import { type SearchPlan, planSearch } from '../../../lib/search/plan.ts';
import { rankResults } from '../../../lib/search/rank.ts';
import { type SearchContinuation, type SearchFetchers, runStep } from '../../../lib/search/run.ts';
import { budgetRetry } from '../budget-retry.ts';
import { useCollections, useSmartFolders, useTags } from '../queries.ts';
import { keys } from '../query-keys.ts';
import { sendLibrary } from '../send.ts';

const fetchers: SearchFetchers = {
  search: (q, limit) => sendLibrary('searchBookmarks', { q, limit }),
  find: (source) => sendLibrary('findBookmarks', { source }),
  keptFolder: (id) => sendLibrary('smartFolderResults', { id }),
  evaluateFolder: (id, restart) => sendLibrary('evaluateSmartFolder', { id, restart }),
};

export interface LibrarySearch {
  parsed: ParsedQuery;
  /** Matches ranked (lib/search/rank.ts); null until the first ones arrive. */
  results: Bookmark[] | null;
  /** Why nothing can match (a collection or tag that does not exist), said before any request. */
  nothing: string | null;
  /** A plain sentence when a cap or the request budget left part of the library unexamined. */
  partial: string | null;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  /** An error (or the budget's wait) to show; results found so far stay. */
  problem: unknown;
}

/** Whether a request's answer dropped out of the lists as they are now (a tag or collection renamed). */
const planKey = (plan: SearchPlan | null) => (plan ? JSON.stringify(plan.source) : null);

/**
 * A search of the library as typed (operators and all), inside `scope`: the
 * plan (lib/search/plan.ts) run a step at a time, the matches ranked, more on
 * `loadMore`. The text is searched as given: the caller debounces it.
 */
export function useLibrarySearch(text: string, scope: BrowseSource): LibrarySearch {
  const parsed = useMemo(() => parseQuery(text), [text]);
  const collections = useCollections();
  const tags = useTags();
  const smartFolders = useSmartFolders();
  const plan = useMemo(
    () =>
      collections.data && tags.data && smartFolders.data && parsed.terms.length > 0
        ? planSearch(parsed, scope, { collections: collections.data, tags: tags.data, smartFolders: smartFolders.data })
        : null,
    [parsed, scope, collections.data, tags.data, smartFolders.data],
  );
  const query = useInfiniteQuery({
    queryKey: keys.find(text, scope, planKey(plan)),
    queryFn: ({ pageParam }) => runStep(plan!, fetchers, pageParam),
    initialPageParam: null as SearchContinuation | null,
    getNextPageParam: (last) => last.next,
    enabled: plan !== null && plan.source.kind !== 'none',
    ...budgetRetry,
  });
  const steps = query.data?.pages;
  const results = useMemo(() => {
    if (!steps || !plan) return null;
    // A larger limit of the API's search answers the first matches again.
    const seen = new Set<string>();
    const found = steps.flatMap((s) => s.matches).filter((b) => !seen.has(b.id) && seen.add(b.id));
    return rankResults(found, plan.rankTerms);
  }, [steps, plan]);
  const last = steps?.at(-1);
  const examined = steps?.reduce((n, s) => n + s.examined, 0) ?? 0;
  const scanning = plan?.source.kind === 'list' && query.hasNextPage;
  const { fetchNextPage } = query;
  return {
    parsed,
    results: plan?.source.kind === 'none' ? [] : results,
    nothing: plan?.source.kind === 'none' ? plan.source.reason : null,
    partial: last?.partial ?? (scanning ? `Looked through the ${examined} newest bookmarks that could match so far. Load more looks further.` : null),
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void fetchNextPage(),
    problem: query.error ?? query.failureReason ?? collections.error ?? tags.error ?? smartFolders.error,
  };
}
