import { secondaryButtonClass } from '../../field-styles.ts';
import type { LibrarySearch } from './use-library-search.ts';

const lineClass = 'border-b border-zinc-200 px-2 py-1.5 text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400';

/** How many matches a search found (so far, when more can be loaded), and why a result is partial. */
export function SearchCount({ search }: { search: LibrarySearch }) {
  if (search.nothing) return <p role="status" className={lineClass}>{search.nothing}</p>;
  if (!search.results) return null;
  const n = search.results.length;
  return (
    <div role="status" className={`${lineClass} space-y-0.5`}>
      <p>{`${n === 0 ? 'No bookmarks' : n === 1 ? '1 bookmark' : `${n} bookmarks`} found${search.hasMore ? ' so far' : ''}.`}</p>
      {search.partial && <p>{search.partial}</p>}
    </div>
  );
}

/** More matches, asked for by the user: each step spends requests of the budget. */
export function LoadMore({ search }: { search: LibrarySearch }) {
  if (!search.hasMore) return null;
  return (
    <div className="border-t border-zinc-200 p-2 text-center dark:border-zinc-800">
      <button type="button" className={secondaryButtonClass} disabled={search.loadingMore} onClick={search.loadMore}>
        {search.loadingMore ? 'Loading more…' : 'Load more'}
      </button>
    </div>
  );
}
