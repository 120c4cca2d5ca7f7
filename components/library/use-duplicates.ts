import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toClientError } from '../../lib/client/errors.ts';
import { describeError } from '../../lib/client/user-text.ts';
import type { DuplicatesView } from '../../lib/messaging/library-replies.ts';
import { budgetRetry } from './budget-retry.ts';
import { type BulkFailure, runBulk } from './bulk.ts';
import type { MergePlan } from './duplicate-merge.ts';
import { keys } from './query-keys.ts';
import { sendLibrary, sendLibraryEarlyFirst } from './send.ts';

/** A search as the page holds it: `restFrom` is the index of the first group still to come, null once all came. */
export interface ShownDuplicates extends DuplicatesView {
  restFrom: number | null;
}

export interface MergeNotice {
  text: string;
  error: boolean;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const reason = (text: string) => text.replace(/\.$/, '');

function summary(plans: readonly MergePlan[], patchFailures: BulkFailure[], trashed: number, trashFailures: BulkFailure[]): MergeNotice {
  const merged = plans.length - patchFailures.length;
  const done = `Merged ${plural(merged, 'group', 'groups')} of ${plans.length}: moved ${plural(trashed, 'duplicate', 'duplicates')} to the trash.`;
  const notDone = [
    ...patchFailures.map((f) => `${plural(f.ids.length, 'group', 'groups')} not merged (${reason(f.reason)})`),
    ...trashFailures.map((f) => `${plural(f.ids.length, 'duplicate', 'duplicates')} not trashed (${reason(f.reason)})`),
  ];
  return notDone.length === 0 ? { text: done, error: false } : { text: `${done} ${notDone.join('; ')}.`, error: true };
}

/**
 * The duplicate groups (a heavy endpoint: asked once when the view opens, then
 * only on *Search again*; a search refused for the budget is asked again once
 * there is room) and merging them: one PATCH per kept bookmark with the others'
 * tags and notes, then the others trashed in bulk requests of 50. A group
 * whose PATCH fails keeps all its bookmarks.
 */
export function useDuplicates() {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: keys.duplicates,
    queryFn: async (): Promise<ShownDuplicates> => {
      const view = await sendLibraryEarlyFirst('findDuplicates', {});
      return { ...view, restFrom: view.groups.length < view.total ? view.groups.length : null };
    },
    staleTime: Infinity,
    ...budgetRetry,
  });
  const [progress, setProgress] = useState<string | null>(null);
  const [notice, setNotice] = useState<MergeNotice | null>(null);
  const [restProblem, setRestProblem] = useState<unknown>(null);

  // The groups past the first screen, asked once it is shown; Merge all waits for them.
  const answer = query.data;
  useEffect(() => {
    if (!answer || answer.restFrom === null) return;
    let stopped = false;
    setRestProblem(null);
    sendLibrary('moreDuplicates', { fetchedAt: answer.fetchedAt, from: answer.restFrom }).then(
      (rest) => {
        if (stopped) return;
        // Groups merged meanwhile are gone from `now`; none of the rest was shown, so none of them was merged.
        qc.setQueryData<ShownDuplicates>(keys.duplicates, (now) => (now?.fetchedAt === answer.fetchedAt ? { ...now, groups: [...now.groups, ...rest], restFrom: null } : now));
      },
      (err: unknown) => !stopped && setRestProblem(err),
    );
    return () => {
      stopped = true;
    };
  }, [answer?.fetchedAt, answer?.restFrom, qc]);

  const merge = async (plans: readonly MergePlan[]) => {
    setNotice(null);
    const patchFailures: BulkFailure[] = [];
    const merged: MergePlan[] = [];
    for (const [i, plan] of plans.entries()) {
      setProgress(`Merging ${plural(plans.length, 'group', 'groups')}: ${i} of ${plans.length} done`);
      try {
        if (plan.patch) await sendLibrary('updateBookmark', { id: plan.keep.id, patch: plan.patch });
        merged.push(plan);
      } catch (err) {
        const text = describeError(toClientError(err)).title;
        const same = patchFailures.find((f) => f.reason === text);
        if (same) same.ids.push(plan.keep.id);
        else patchFailures.push({ ids: [plan.keep.id], reason: text });
      }
    }
    const ids = merged.flatMap((p) => p.trash.map((b) => b.id));
    const outcome = await runBulk(sendLibrary, { type: 'trash' }, ids, (done) => setProgress(`Moving ${ids.length} duplicates to the trash: ${done} of ${ids.length} done`));
    const gone = new Set(merged.map((p) => p.keep.id));
    qc.setQueryData<ShownDuplicates>(keys.duplicates, (view) => view && { ...view, groups: view.groups.filter((g) => !g.bookmarks.some((b) => gone.has(b.id))) });
    void qc.invalidateQueries({ queryKey: keys.bookmarkLists });
    void qc.invalidateQueries({ queryKey: keys.collections });
    void qc.invalidateQueries({ queryKey: keys.tags });
    void qc.invalidateQueries({ queryKey: keys.trash });
    setProgress(null);
    setNotice(summary(plans, patchFailures, outcome.done.length, outcome.failed));
  };

  return {
    view: query.data,
    /** Every group of the search came: Merge all may use them. */
    complete: query.data?.restFrom === null,
    /** Why there are no groups (or not all of them) to show: a failure, or a search waiting for the budget. */
    problem: query.error ?? query.failureReason ?? restProblem,
    searching: query.isFetching,
    searchAgain: () => void query.refetch(),
    merge,
    merging: progress !== null,
    progress,
    notice,
  };
}
