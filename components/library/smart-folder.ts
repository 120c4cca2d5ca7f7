import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { SmartFolderView } from '../../lib/messaging/library-replies.ts';
import { budgetRetry } from './budget-retry.ts';
import { keys } from './query-keys.ts';
import { sendLibrary } from './send.ts';

/** Asked a little after the budget frees up, not at the very millisecond. */
const CLOCK_MARGIN_MS = 250;

/** Whether the view still wants evaluation requests: a pass under way, or a folder never evaluated. */
export const wantsEvaluation = (view: SmartFolderView): boolean => !view.complete || view.fetchedAt === null;

/**
 * A smart folder's matches: what the background keeps is shown at once (no
 * request); a pass under way continues page by page as the heavy-endpoint
 * budget allows (the background says when); `refresh` starts a new pass.
 */
export function useSmartFolder(id: string) {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: keys.smartFolder(id), queryFn: () => sendLibrary('smartFolderResults', { id }), staleTime: Infinity, ...budgetRetry });
  const evaluate = useMutation({
    mutationFn: (restart: boolean) => sendLibrary('evaluateSmartFolder', { id, restart }),
    onSuccess: (view) => qc.setQueryData(keys.smartFolder(id), view),
  });
  const view = query.data;
  // An answer equal to the last one keeps its object (react-query shares structure): its time still says that it came.
  const answeredAt = query.dataUpdatedAt;
  const busy = evaluate.isPending;
  const failed = evaluate.isError;
  const { mutate } = evaluate;

  useEffect(() => {
    if (!view || busy || failed || !wantsEvaluation(view)) return;
    const wait = view.nextEvaluationAt === null ? 0 : view.nextEvaluationAt - Date.now() + CLOCK_MARGIN_MS;
    const timer = setTimeout(() => mutate(false), Math.max(0, wait));
    return () => clearTimeout(timer);
  }, [view, answeredAt, busy, failed, mutate]);

  return {
    view,
    // While the view waits for the request budget, the refusal says why and for how long.
    error: query.error ?? query.failureReason ?? evaluate.error,
    evaluating: busy,
    refresh: () => evaluate.mutate(true),
  };
}
