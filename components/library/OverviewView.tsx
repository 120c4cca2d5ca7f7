import type { BookmarkType } from '../../lib/api/bookmarks.ts';
import { toClientError } from '../../lib/client/errors.ts';
import type { BrowseSource } from '../../lib/messaging/library-requests.ts';
import { ErrorAlertWithSignIn } from '../account/SignInAgain.tsx';
import { bookmarkCount } from '../options/count.ts';
import { focusRing } from '../field-styles.ts';
import { useStats } from './use-library-counts.ts';

const rowClass = `flex w-full items-center justify-between gap-2 rounded px-2 py-1 text-left text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800 ${focusRing}`;

const TYPES: ReadonlyArray<{ type: BookmarkType; title: string }> = [
  { type: 'link', title: 'Links' },
  { type: 'article', title: 'Articles' },
  { type: 'video', title: 'Videos' },
  { type: 'image', title: 'Images' },
  { type: 'document', title: 'Documents' },
];

interface Props {
  /** Opens a list of the library (All, Favourites, Unsorted). */
  onOpen(source: BrowseSource, title: string): void;
  /** Runs a search (the lists the API has no list for: without tags, one type). */
  onSearch(text: string): void;
}

function Row({ title, count, onClick }: { title: string; count: number; onClick(): void }) {
  return (
    <li>
      <button type="button" className={rowClass} aria-label={`${title}: ${bookmarkCount(count)}`} onClick={onClick}>
        <span>{title}</span>
        <span className="text-xs text-zinc-500 dark:text-zinc-400">{count}</span>
      </button>
    </li>
  );
}

/** The library's totals, each a way into its list. */
export function OverviewView({ onOpen, onSearch }: Props) {
  const stats = useStats();
  if (stats.error) return <ErrorAlertWithSignIn error={toClientError(stats.error)} />;
  if (!stats.data) return <p role="status" className="p-4 text-sm text-zinc-500">Loading…</p>;
  const s = stats.data;
  return (
    <div className="min-h-0 flex-1 space-y-3 overflow-y-auto p-2">
      <section aria-label="Totals">
        <ul>
          <Row title="All bookmarks" count={s.total} onClick={() => onOpen({ kind: 'all' }, 'All bookmarks')} />
          <Row title="Favourites" count={s.favorites} onClick={() => onOpen({ kind: 'favorites' }, 'Favourites')} />
          <Row title="Unsorted" count={s.unsorted} onClick={() => onOpen({ kind: 'unsorted' }, 'Unsorted')} />
          <Row title="Without tags" count={s.noTags} onClick={() => onSearch('is:untagged')} />
        </ul>
      </section>
      <section aria-label="By type" className="space-y-1">
        <h3 className="px-2 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">By type</h3>
        <ul>
          {TYPES.map(({ type, title }) => (
            <Row key={type} title={title} count={s.typeCounts[type]} onClick={() => onSearch(`type:${type}`)} />
          ))}
        </ul>
      </section>
    </div>
  );
}
