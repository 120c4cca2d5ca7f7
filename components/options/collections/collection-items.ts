import { type Collection, MAX_COLLECTION_DEPTH } from '../../../lib/api/collections.ts';
import { subtreeOf } from '../tree-rows.ts';

export type CollectionItem = Collection & { label: string };

export const asItem = (c: Collection): CollectionItem => ({ ...c, label: c.icon ? `${c.icon} ${c.name}` : c.name });

/** Where `id` may go: not under itself, and not so deep that its branch would pass the depth limit (the server's rules). */
export function moveTargets(collections: readonly Collection[], id: string): Collection[] {
  const branch = subtreeOf(collections, id);
  const self = branch[0];
  if (!self) return [];
  const inBranch = new Set(branch.map((c) => c.id));
  const height = Math.max(...branch.map((c) => c.depth)) - self.depth;
  return collections.filter((c) => !inBranch.has(c.id) && c.id !== self.parentId && c.depth + 1 + height <= MAX_COLLECTION_DEPTH);
}
