import { useState } from 'react';
import type { Collection } from '../../../lib/api/collections.ts';
import { toClientError } from '../../../lib/client/errors.ts';
import { dangerButtonClass, inputClass, labelClass, secondaryButtonClass } from '../../field-styles.ts';
import { collectionPath } from '../../collection-tree.ts';
import { plural } from '../count.ts';
import { Dialog } from '../../Dialog.tsx';
import { SectionError } from '../SectionError.tsx';
import { subtreeOf } from '../tree-rows.ts';
import { useScope } from '../use-scopes.ts';
import type { useCollectionChanges } from './changes.ts';

interface Props {
  collection: Collection;
  collections: readonly Collection[];
  changes: ReturnType<typeof useCollectionChanges>;
  onDeleted(): void;
  onClose(): void;
}

/**
 * Delete, with a warning that names what goes with it. When the server refuses
 * a collection too large to trash at once, the spec's way out, in steps the
 * user can take here: trash its child collections first, or move its bookmarks
 * elsewhere. Emptying the trash is never offered for it.
 */
export function DeleteCollectionDialog({ collection, collections, changes, onDeleted, onClose }: Props) {
  const branch = subtreeOf(collections, collection.id);
  const children = collections.filter((c) => c.parentId === collection.id);
  const bookmarks = branch.reduce((sum, c) => sum + c.bookmarkCount, 0);
  const [target, setTarget] = useState('');
  const error = changes.trash.error ? toClientError(changes.trash.error) : null;
  const tooLarge = error?.code === 'COLLECTION_TOO_LARGE';
  const canMoveBookmarks = useScope('bookmarks:write');

  const trash = () => changes.trash.mutate(collection.id, { onSuccess: onDeleted });

  return (
    <Dialog title={`Delete “${collection.name}”?`} onClose={onClose}>
      <p>
        “{collection.name}” goes to the trash
        {branch.length > 1 && <> with {plural(branch.length - 1, 'collection inside it', 'collections inside it')}</>}
        {bookmarks > 0 && <> and {plural(bookmarks, 'bookmark', 'bookmarks')}</>}. You can restore it from the trash for 30 days.
      </p>
      {error && !tooLarge && <SectionError error={error} />}
      {tooLarge && (
        <div role="alert" className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950">
          <p className="font-medium">This collection is too large to move to the trash at once (more than 1,000 collections and bookmarks together). Nothing was changed.</p>
          <p>Make it smaller, then try again. Emptying the trash does not help, and Shelf never does it for this.</p>
          {children.length > 0 && (
            <div className="space-y-1">
              <p>Trash its collections one at a time first:</p>
              <ul className="space-y-1">
                {children.map((child) => (
                  <li key={child.id} className="flex items-center justify-between gap-2">
                    <span className="truncate">
                      {child.name} ({plural(subtreeOf(collections, child.id).reduce((s, c) => s + c.bookmarkCount, 0), 'bookmark', 'bookmarks')})
                    </span>
                    <button type="button" className={secondaryButtonClass} onClick={() => changes.trash.mutate(child.id)}>
                      Trash “{child.name}”
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {collection.bookmarkCount > 0 && !canMoveBookmarks && (
            <p>Moving its bookmarks elsewhere needs a token with the bookmarks:write scope, which this one lacks.</p>
          )}
          {collection.bookmarkCount > 0 && canMoveBookmarks && (
            <div className="space-y-1">
              <label className="block space-y-1">
                <span className={labelClass}>Or move its {plural(collection.bookmarkCount, 'bookmark', 'bookmarks')} to</span>
                <select className={inputClass} value={target} onChange={(e) => setTarget(e.target.value)}>
                  <option value="">Unsorted</option>
                  {collections
                    .filter((c) => !branch.some((b) => b.id === c.id))
                    .map((c) => (
                      <option key={c.id} value={c.id}>
                        {collectionPath(collections, c.id)}
                      </option>
                    ))}
                </select>
              </label>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={changes.moveBookmarks.isPending}
                onClick={() => changes.moveBookmarks.mutate({ id: collection.id, to: target || null })}
              >
                {changes.moveBookmarks.isPending ? 'Moving bookmarks…' : 'Move the bookmarks'}
              </button>
            </div>
          )}
          {changes.moveBookmarks.data && <p role="status">Moved {plural(changes.moveBookmarks.data.moved, 'bookmark', 'bookmarks')}: try again now.</p>}
          {changes.moveBookmarks.error && <SectionError error={toClientError(changes.moveBookmarks.error)} />}
        </div>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButtonClass} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={dangerButtonClass} disabled={changes.trash.isPending} onClick={trash}>
          {tooLarge ? 'Try again' : 'Move to trash'}
        </button>
      </div>
    </Dialog>
  );
}
