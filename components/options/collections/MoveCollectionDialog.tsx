import { useMemo, useState } from 'react';
import type { Collection } from '../../../lib/api/collections.ts';
import { primaryButtonClass, secondaryButtonClass } from '../../field-styles.ts';
import { Dialog } from '../../Dialog.tsx';
import { FilteredTree } from '../FilteredTree.tsx';
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
  const [target, setTarget] = useState<string | null>(null);
  const places = useMemo(() => {
    const top = collection.parentId === null ? [] : [{ ...asItem(collection), id: TOP, parentId: null, label: 'Top level', bookmarkCount: 0 }];
    return [...top, ...moveTargets(collections, collection.id).map(asItem)];
  }, [collections, collection]);

  return (
    <Dialog title={`Move “${collection.name}”`} onClose={onClose}>
      {places.length === 0 ? (
        <p>There is nowhere else this collection can go: it cannot go inside itself, and collections nest at most 10 levels deep.</p>
      ) : (
        <FilteredTree label="Places" noun="place" items={places} selectedId={target} onSelect={setTarget} detail={() => ''} />
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
