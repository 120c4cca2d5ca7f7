import type { SmartFolderView } from '../../lib/messaging/library-replies.ts';
import { secondaryButtonClass } from '../field-styles.ts';
import { relativeDate } from './relative-date.ts';
import { useNow } from './use-now.ts';

interface Props {
  view: SmartFolderView;
  evaluating: boolean;
  onRefresh(): void;
}

/** Where a smart folder's results come from and when they can be refreshed: evaluation is limited to two requests a minute. */
export function SmartFolderStatus({ view, evaluating, onRefresh }: Props) {
  const now = useNow(view.nextEvaluationAt !== null);
  const waiting = view.nextEvaluationAt !== null && view.nextEvaluationAt > now;
  const seconds = waiting ? Math.ceil((view.nextEvaluationAt! - now) / 1000) : 0;
  const count = `${view.bookmarks.length} ${view.bookmarks.length === 1 ? 'match' : 'matches'}`;

  let state: string;
  if (!view.complete) state = `Searching: ${count} so far, part ${view.pages + 1}${waiting ? ` in ${seconds} s (smart folders can search twice a minute)` : '…'}`;
  else if (view.fetchedAt === null) state = 'Not searched yet';
  else state = `${count}, fetched ${relativeDate(view.fetchedAt, now)}`;

  return (
    <div className="space-y-1 border-b border-zinc-200 px-2 py-2 text-xs dark:border-zinc-800">
      <div className="flex items-center justify-between gap-2">
        <p role="status" className="text-zinc-600 dark:text-zinc-400">
          {state}
        </p>
        <button type="button" className={secondaryButtonClass} disabled={waiting || evaluating || !view.complete} onClick={onRefresh}>
          Refresh
        </button>
      </div>
      {view.complete && waiting && <p className="text-zinc-500">Refresh possible in {seconds} s.</p>}
      {view.truncated && (
        <p className="text-amber-700 dark:text-amber-400">
          Results are cut short: a smart folder shows at most 500 matches and looks through at most 5,000 bookmarks each time. Narrow the folder’s rules to see the rest.
        </p>
      )}
    </div>
  );
}
