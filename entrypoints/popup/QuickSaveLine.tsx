import { browser } from 'wxt/browser';
import type { Collection } from '../../lib/api/collections.ts';
import type { QuickSaveTarget } from '../../lib/storage/items.ts';
import { focusRing } from '../../components/field-styles.ts';
import { QUICK_SAVE_SECTION, quickSaveDestination } from '../../components/quick-save/destination.ts';

/** One line under the form: where the shortcut and the context menu save, with the way to change it. */
export function QuickSaveLine({ target, collections }: { target: QuickSaveTarget | undefined; collections: readonly Collection[] | null }) {
  if (target === undefined) return null;
  const destination = quickSaveDestination(target, collections);
  if (destination.kind === 'loading') return null;
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-400">
      {destination.kind === 'gone' ? (
        <>Quick saves (shortcut, right-click menu) go to Unsorted: the collection chosen for them is no longer in your library. </>
      ) : (
        <>
          Quick saves (shortcut, right-click menu) go to <span className="font-medium text-zinc-800 dark:text-zinc-200">{destination.name}</span>.{' '}
        </>
      )}
      <a
        href={browser.runtime.getURL(`/options.html#${QUICK_SAVE_SECTION}`)}
        target="_blank"
        rel="noreferrer"
        aria-label="Change where quick saves go"
        className={`underline hover:text-zinc-900 dark:hover:text-zinc-100 ${focusRing}`}
      >
        Change
      </a>
    </p>
  );
}
