import type { LibraryView } from '../../lib/storage/library-items.ts';
import { focusRing } from '../field-styles.ts';

const LABELS: Record<LibraryView, string> = { list: 'List', cards: 'Cards', grid: 'Grid' };

/** The three views of a list, the chosen one pressed. */
export function ViewSwitch({ view, onChange }: { view: LibraryView; onChange(view: LibraryView): void }) {
  return (
    <div role="group" aria-label="View" className="flex shrink-0 rounded-md border border-zinc-300 p-0.5 dark:border-zinc-600">
      {(Object.keys(LABELS) as LibraryView[]).map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={option === view}
          onClick={() => onChange(option)}
          className={`rounded px-2.5 py-1 text-xs font-medium ${focusRing} ${
            option === view ? 'bg-zinc-800 text-white dark:bg-zinc-200 dark:text-zinc-900' : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800'
          }`}
        >
          {LABELS[option]}
        </button>
      ))}
    </div>
  );
}
