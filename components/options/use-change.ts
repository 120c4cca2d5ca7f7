import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../library/query-keys.ts';

interface Change<V, R, T> {
  run(vars: V): Promise<R>;
  /** The list the change shows in at once, rolled back when it fails. */
  key: QueryKey;
  optimistic?: (list: T, vars: V) => T;
}

/**
 * A change to the library: shown at once in its list, rolled back when the
 * server refuses it, and every list that may show it asked again after it
 * (bookmark lists too: they carry collection and tag names).
 */
export function useChange<V, R, T = unknown>({ run, key, optimistic }: Change<V, R, T>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onMutate: async (vars: V) => {
      if (!optimistic) return { before: undefined };
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<T>(key);
      if (before !== undefined) qc.setQueryData<T>(key, optimistic(before, vars));
      return { before };
    },
    onError: (_error, _vars, context) => {
      if (context?.before !== undefined) qc.setQueryData(key, context.before);
    },
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: key }), qc.invalidateQueries({ queryKey: keys.bookmarkLists })]),
  });
}
