import { type Collection, MAX_COLLECTION_DEPTH } from '../../../lib/api/collections.ts';
import type { CollectionTreeEntry } from '../../../lib/storage/library-items.ts';
import { subtreeOf } from '../tree-rows.ts';

/** A collection as its tree shows it: the whole collection, or only the fields the options page opened with. */
export const asItem = <C extends CollectionTreeEntry>(c: C): C & { label: string } => ({ ...c, label: c.icon ? `${c.icon} ${c.name}` : c.name });

/** Where `id` may go: not under itself, and not so deep that its branch would pass the depth limit (the server's rules). */
export function moveTargets(collections: readonly Collection[], id: string): Collection[] {
  const branch = subtreeOf(collections, id);
  const self = branch[0];
  if (!self) return [];
  const inBranch = new Set(branch.map((c) => c.id));
  const height = Math.max(...branch.map((c) => c.depth)) - self.depth;
  return collections.filter((c) => !inBranch.has(c.id) && c.id !== self.parentId && c.depth + 1 + height <= MAX_COLLECTION_DEPTH);
}
