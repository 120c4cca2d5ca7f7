import type { PatchCollectionBody } from '../../../lib/api/collection-edits.ts';
import type { Collection } from '../../../lib/api/collections.ts';
import { keys } from '../../library/query-keys.ts';
import { sendLibrary } from '../../library/send.ts';
import { useChange } from '../use-change.ts';

/** The Collections section's changes, each shown at once in the tree and rolled back if refused. */
export function useCollectionChanges() {
  const create = useChange({
    key: keys.collections,
    run: (input: { name: string; parentId: string | null }) => sendLibrary('createCollection', { name: input.name, ...(input.parentId && { parentId: input.parentId }) }),
  });
  const update = useChange<{ id: string; patch: PatchCollectionBody }, Collection, Collection[]>({
    key: keys.collections,
    run: ({ id, patch }) => sendLibrary('updateCollection', { id, patch }),
    optimistic: (list, { id, patch }) => list.map((c) => (c.id === id ? { ...c, ...patch } : c)),
  });
  // Not shown before the answer: the delete dialog stays open on its collection to lead through a refusal.
  const trash = useChange({ key: keys.collections, run: (id: string) => sendLibrary('trashCollection', { id }) });
  const restore = useChange({ key: keys.collections, run: (id: string) => sendLibrary('restoreCollection', { id }) });
  const moveBookmarks = useChange({ key: keys.collections, run: (input: { id: string; to: string | null }) => sendLibrary('moveCollectionBookmarks', input) });
  return { create, update, trash, restore, moveBookmarks };
}
