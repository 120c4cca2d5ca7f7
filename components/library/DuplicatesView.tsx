import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import type { DuplicateBookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import { ClientError, toClientError } from '../../lib/client/errors.ts';
import { ErrorAlert } from '../ErrorAlert.tsx';
import { focusRing, primaryButtonClass, secondaryButtonClass } from '../field-styles.ts';
import { defaultKeep, mergePlan } from './duplicate-merge.ts';
import { useCollections } from './queries.ts';
import { relativeDate } from './relative-date.ts';
import { type ShownDuplicates, useDuplicates } from './use-duplicates.ts';
import { useNow } from './use-now.ts';

/** Every group is as tall: its bookmarks stand side by side (scrolling sideways), each note cut to a few lines. */
const GROUP_HEIGHT = 300;
const OVERSCAN = 3;
const INITIAL_RECT = { width: 560, height: 640 };

const day = (iso: string) => new Date(iso).toLocaleDateString();

function Card({ bookmark: b, group, collections, kept, onKeep }: { bookmark: DuplicateBookmark; group: string; collections: Map<string, Collection>; kept: boolean; onKeep(): void }) {
  const collection = b.collectionId === null ? 'Unsorted' : (collections.get(b.collectionId)?.name ?? 'A collection');
  const title = b.title || b.url;
  return (
    <div className={`flex h-full w-56 shrink-0 flex-col gap-1 rounded-md border p-2 text-xs ${kept ? 'border-blue-500 bg-blue-50 dark:border-blue-400 dark:bg-blue-950' : 'border-zinc-200 dark:border-zinc-700'}`}>
      <label className="flex items-center gap-1.5 font-medium">
        <input type="radio" name={group} checked={kept} onChange={onKeep} aria-label={`Keep ${title} (${b.url})`} />
        {kept ? 'Kept' : 'Keep this one'}
      </label>
      <p className="line-clamp-2 text-sm font-medium" title={title}>
        {title}
      </p>
      <p className="truncate text-zinc-600 dark:text-zinc-400" title={b.url}>
        {b.url}
      </p>
      <p>
        <span className="text-zinc-500">Collection:</span> {collection}
      </p>
      <p className="line-clamp-2">
        <span className="text-zinc-500">Tags:</span> {b.tags.length ? b.tags.map((t) => `#${t}`).join(' ') : 'none'}
      </p>
      <p>
        <span className="text-zinc-500">Saved</span> <time dateTime={b.createdAt}>{day(b.createdAt)}</time>
        {' · '}
        <span className="text-zinc-500">changed</span> <time dateTime={b.updatedAt}>{day(b.updatedAt)}</time>
      </p>
      <p className="line-clamp-3 whitespace-pre-line">
        <span className="text-zinc-500">Note:</span> {b.note.trim() || 'none'}
      </p>
    </div>
  );
}

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
 * virtualised: 1,000 open as fast as 10; the first screen's come first, the rest once
 * it is shown.
 */
export function DuplicatesView() {
  const { view, complete, problem, searching, searchAgain, merge, merging, progress, notice } = useDuplicates();
  const collections = new Map((useCollections().data ?? []).map((c) => [c.id, c]));
  const [chosen, setChosen] = useState<ReadonlyMap<string, string>>(new Map());
  const groups = view?.groups ?? [];
  // Groups merged since the search are gone from `groups`; those still to come are counted from the search's total.
  const total = groups.length + (view && view.restFrom !== null ? view.total - view.restFrom : 0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: groups.length, getScrollElement: () => scrollRef.current, estimateSize: () => GROUP_HEIGHT, overscan: OVERSCAN, initialRect: INITIAL_RECT });
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
      <div ref={scrollRef} role="region" aria-label="Duplicate groups" tabIndex={0} className={`max-h-[75vh] min-h-0 flex-1 overflow-y-auto ${focusRing}`}>
        <ul aria-label="Duplicate groups" className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const group = groups[item.index]!;
            const keepId = keepOf(group.bookmarks);
            const first = group.bookmarks[0]!.id;
            return (
              <li
                key={first}
                aria-setsize={total}
                aria-posinset={item.index + 1}
                className="absolute left-0 top-0 w-full py-1"
                style={{ height: GROUP_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                <fieldset aria-label={`Duplicates of ${group.normalizedUrl}`} className="flex h-full flex-col gap-1 rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
                  <legend className="sr-only">Duplicates of {group.normalizedUrl}</legend>
                  <div className="flex items-center gap-2">
                    <p className="min-w-0 flex-1 truncate text-xs text-zinc-600 dark:text-zinc-400">
                      {group.bookmarks.length} bookmarks of {group.normalizedUrl}
                    </p>
                    <button
                      type="button"
                      className={primaryButtonClass}
                      disabled={merging}
                      aria-label={`Merge the duplicates of ${group.normalizedUrl}`}
                      onClick={() => void merge([mergePlan(group.bookmarks, keepId)])}
                    >
                      Merge
                    </button>
                  </div>
                  <div className="flex min-h-0 flex-1 gap-2 overflow-x-auto">
                    {group.bookmarks.map((b) => (
                      <Card key={b.id} bookmark={b} group={first} collections={collections} kept={b.id === keepId} onKeep={() => setChosen((now) => new Map(now).set(first, b.id))} />
                    ))}
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
