import { useState } from 'react';
import type { DuplicateBookmark } from '../../lib/api/bookmarks.ts';
import { ClientError, toClientError } from '../../lib/client/errors.ts';
import { ErrorAlert } from '../ErrorAlert.tsx';
import { secondaryButtonClass } from '../field-styles.ts';
import { DuplicateGroupList } from './DuplicateGroupList.tsx';
import { defaultKeep, mergePlan } from './duplicate-merge.ts';
import { useCollections } from './queries.ts';
import { relativeDate } from './relative-date.ts';
import { type ShownDuplicates, useDuplicates } from './use-duplicates.ts';
import { useNow } from './use-now.ts';

/** When the search may be sent again, and the button that sends it. */
function SearchStatus({ view, total, searching, onSearch }: { view: ShownDuplicates | undefined; total: number; searching: boolean; onSearch(): void }) {
  const next = view?.nextCheckAt ?? null;
  const now = useNow(next !== null);
  const seconds = next !== null && next > now ? Math.ceil((next - now) / 1000) : 0;
  const count = view ? `${total} ${total === 1 ? 'group' : 'groups'} of duplicates, found ${relativeDate(view.fetchedAt, now)}.` : 'Searching for duplicates…';
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <p role="status" className="mr-auto">
        {count}
        {seconds > 0 && ` You can search again in ${seconds} s.`}
      </p>
      <button type="button" className={secondaryButtonClass} disabled={searching || seconds > 0} onClick={onSearch}>
        Search again
      </button>
    </div>
  );
}

/**
 * The Duplicates view (options page and side panel): the API's groups of
 * bookmarks with the same URL once normalised, each side by side; the user
 * picks the one to keep (most data, else the oldest, by default) and merges:
 * the others' tags and notes go into it, then they go to the trash. Groups are
 * virtualised (DuplicateGroupList); the first screen's come first, the rest once
 * it is shown.
 */
export function DuplicatesView() {
  const { view, complete, problem, searching, searchAgain, merge, merging, progress, notice } = useDuplicates();
  // The kept names show with the first groups; the server's list (a request, its check and a render) waits for the search's answer, not beside it.
  const collections = new Map((useCollections(view !== undefined).data ?? []).map((c) => [c.id, c]));
  const [chosen, setChosen] = useState<ReadonlyMap<string, string>>(new Map());
  const groups = view?.groups ?? [];
  // Groups merged since the search are gone from `groups`; those still to come are counted from the search's total.
  const total = groups.length + (view && view.restFrom !== null ? view.total - view.restFrom : 0);
  const keepOf = (bookmarks: DuplicateBookmark[]) => chosen.get(bookmarks[0]!.id) ?? defaultKeep(bookmarks).id;
  const waiting = problem instanceof ClientError && problem.code === 'RATE_LIMITED' && problem.retryAfterSeconds !== undefined;

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2 p-2">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Bookmarks whose addresses differ only by http or https, www, a trailing slash or tracking parameters. Merging keeps the chosen one, adds the others’ tags and notes to it, and moves the others to the trash.
      </p>
      <SearchStatus view={view} total={total} searching={searching} onSearch={searchAgain} />
      {waiting ? (
        <p role="status" className="text-sm">
          This search can be made twice a minute: it will start in {problem.retryAfterSeconds} s.
        </p>
      ) : (
        problem ? <ErrorAlert error={toClientError(problem)} /> : null
      )}
      {total > 1 && (
        <button type="button" className={`${secondaryButtonClass} self-start`} disabled={merging || !complete} onClick={() => void merge(groups.map((g) => mergePlan(g.bookmarks, keepOf(g.bookmarks))))}>
          Merge all {total} groups
        </button>
      )}
      {(progress ?? notice) && (
        <p role="status" className={`text-sm ${notice?.error && !progress ? 'text-red-700 dark:text-red-400' : ''}`}>
          {progress ?? notice?.text}
        </p>
      )}
      {view && total === 0 && <p className="text-sm">No duplicates.</p>}
      {groups.length > 0 && (
        <DuplicateGroupList
          groups={groups}
          total={total}
          collections={collections}
          merging={merging}
          keepOf={keepOf}
          onKeep={(first, id) => setChosen((now) => new Map(now).set(first, id))}
          onMerge={(bookmarks, keepId) => void merge([mergePlan(bookmarks, keepId)])}
        />
      )}
    </div>
  );
}
