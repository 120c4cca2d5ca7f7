import { useEffect, useId, useState } from 'react';
import { type QuickSaveTarget, quickSaveTargetItem } from '../../../lib/storage/items.ts';
import { collectionPath } from '../../collection-tree.ts';
import { inputClass, labelClass } from '../../field-styles.ts';
import { useCollections } from '../../library/queries.ts';
import { quickSaveDestination } from '../../quick-save/destination.ts';

const CHOICES = [
  { kind: 'unsorted', label: 'Unsorted', hint: 'Sort them later, from the side panel or here.' },
  { kind: 'last', label: 'The last collection you saved to', hint: 'The one the popup last saved a page in.' },
  { kind: 'collection', label: 'A collection you choose', hint: null },
] as const;

/**
 * Quick saves: where the keyboard shortcut and the context menu put a page, saved without a look at the form.
 * Stored on this device, read by the background at each quick save.
 */
export function QuickSaveSection() {
  const id = useId();
  const collections = useCollections().data ?? null;
  const [target, setTarget] = useState<QuickSaveTarget | null>(null);

  useEffect(() => {
    void quickSaveTargetItem.get().then(setTarget);
  }, []);

  const change = (next: QuickSaveTarget) => {
    setTarget(next);
    void quickSaveTargetItem.set(next);
  };
  const chooseKind = (kind: QuickSaveTarget['kind']) => {
    if (kind !== 'collection') change({ kind });
    else if (collections?.[0]) change({ kind, collectionId: target?.kind === 'collection' ? target.collectionId : collections[0].id });
  };

  const destination = target && quickSaveDestination(target, collections);
  const named = collections?.map((c) => ({ id: c.id, name: collectionPath(collections, c.id) ?? c.name })).sort((a, b) => a.name.localeCompare(b.name)) ?? [];

  return (
    <div className="space-y-4">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Pages you save with the keyboard shortcut (Alt+Shift+S) or the right-click menu go here. A page you had saved already stays where it is.
      </p>
      <fieldset className="space-y-2" disabled={target === null}>
        <legend className="text-base font-semibold">Where quick saves go</legend>
        {CHOICES.map((choice) => (
          <label key={choice.kind} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              className="mt-0.5"
              name={`${id}-target`}
              checked={target?.kind === choice.kind}
              disabled={choice.kind === 'collection' && !collections?.length}
              onChange={() => chooseKind(choice.kind)}
            />
            <span>
              {choice.label}
              {choice.hint && <span className="block text-xs text-zinc-600 dark:text-zinc-400">{choice.hint}</span>}
              {choice.kind === 'collection' && collections?.length === 0 && (
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">You have no collections yet: make one under Collections first.</span>
              )}
            </span>
          </label>
        ))}
      </fieldset>
      {target?.kind === 'collection' && (
        <label className="block max-w-sm space-y-1">
          <span className={labelClass}>Collection for quick saves</span>
          <select className={inputClass} value={target.collectionId} onChange={(e) => change({ kind: 'collection', collectionId: e.target.value })}>
            {destination?.kind === 'gone' && <option value={target.collectionId}>No longer in your library</option>}
            {named.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {destination?.kind === 'gone' && (
        <p role="alert" className="text-sm text-amber-800 dark:text-amber-300">
          The collection you chose for quick saves is no longer in your library (deleted or in the trash), so quick saves go to Unsorted. Choose another one.
        </p>
      )}
    </div>
  );
}
