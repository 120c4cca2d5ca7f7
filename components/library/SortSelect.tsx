import { BookmarkSort } from '../../lib/api/bookmarks.ts';
import { focusRing } from '../field-styles.ts';

/** Each order the API's list offers, as a user reads it. */
const LABELS: Record<BookmarkSort, string> = { newest: 'Newest first', oldest: 'Oldest first', title: 'Title (A to Z)', domain: 'Site (A to Z)' };

/** The order of a list: one control for both layouts. */
export function SortSelect({ sort, onChange }: { sort: BookmarkSort; onChange(sort: BookmarkSort): void }) {
  return (
    <label className="flex shrink-0 items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
      Sort
      <select
        value={sort}
        onChange={(event) => {
          const chosen = BookmarkSort.safeParse(event.target.value);
          if (chosen.success) onChange(chosen.data);
        }}
        className={`rounded-md border border-zinc-300 bg-white px-1.5 py-0.5 text-xs text-zinc-900 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 ${focusRing}`}
      >
        {BookmarkSort.options.map((option) => (
          <option key={option} value={option}>
            {LABELS[option]}
          </option>
        ))}
      </select>
    </label>
  );
}
