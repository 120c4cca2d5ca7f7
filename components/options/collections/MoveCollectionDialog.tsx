import { useMemo, useState } from 'react';
import type { Collection } from '../../../lib/api/collections.ts';
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from '../../field-styles.ts';
import { Dialog } from '../Dialog.tsx';
import { TreeView } from '../TreeView.tsx';
import { toggled, visibleRows } from '../tree-rows.ts';
import { asItem, moveTargets } from './collection-items.ts';

/** The top level, as a row of the tree of places. */
const TOP = '';

interface Props {
  collection: Collection;
  collections: readonly Collection[];
  onMove(parentId: string | null): void;
  onClose(): void;
}

/** "Move to…": the places the server accepts (not inside itself, not past the depth limit), as a tree with a filter. */
export function MoveCollectionDialog({ collection, collections, onMove, onClose }: Props) {
  const [query, setQuery] = useState('');
  const [target, setTarget] = useState<string | null>(null);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const targets = useMemo(() => moveTargets(collections, collection.id).map(asItem), [collections, collection.id]);
  const rows = useMemo(() => {
    const top = collection.parentId === null ? [] : [{ ...asItem(collection), id: TOP, parentId: null, label: 'Top level', bookmarkCount: 0 }];
    return visibleRows([...top, ...targets], collapsed, query);
  }, [targets, collapsed, query, collection]);

  return (
    <Dialog title={`Move “${collection.name}”`} onClose={onClose}>
      <label className="block space-y-1">
        <span className={labelClass}>Filter places</span>
        <input className={inputClass} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
      </label>
      {rows.length === 0 ? (
        <p>There is nowhere else this collection can go: it cannot go inside itself, and collections nest at most 10 levels deep.</p>
      ) : (
        <TreeView
          label="Places"
          rows={rows}
          selectedId={target}
          onSelect={setTarget}
          onToggle={(id, expanded) => setCollapsed((now) => toggled(now, id, expanded))}
          detail={() => ''}
        />
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButtonClass} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={primaryButtonClass} disabled={target === null} onClick={() => target !== null && onMove(target === TOP ? null : target)}>
          Move
        </button>
      </div>
    </Dialog>
  );
}
