import { QueryClient } from '@tanstack/react-query';

/**
 * The query client of the library pages (options, side panel). The background answers from its
 * own caches: a refetch on focus, or a retry of what it refused, would only spend the rate budget
 * (what the user browses waits for the budget on its own: budget-retry.ts).
 */
export const libraryQueryClient = (): QueryClient =>
  new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false, staleTime: 60_000 } } });
