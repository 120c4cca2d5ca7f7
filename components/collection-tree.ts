import type { Collection } from '../lib/api/collections.ts';

export interface TreeRow {
  /** null is Unsorted, the place for bookmarks in no collection. */
  collection: Collection | null;
  depth: number;
  /** False for an ancestor shown only to place a match in the tree. */
  match: boolean;
}

export const UNSORTED = 'Unsorted';

/** Siblings in the user's order; a collection whose parent is not in the list is shown as a root. */
function childrenByParent(collections: readonly Collection[]): Map<string | null, Collection[]> {
  const ids = new Set(collections.map((c) => c.id));
  const byParent = new Map<string | null, Collection[]>();
  for (const c of collections) {
    if (c.deletedAt) continue;
    const parent = c.parentId !== null && ids.has(c.parentId) ? c.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), c]);
  }
  for (const siblings of byParent.values()) siblings.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  return byParent;
}

/**
 * The collections as an indented tree, Unsorted first. With a query, only the
 * collections whose name contains it and, dimmed, their ancestors.
 */
export function treeRows(collections: readonly Collection[], query: string): TreeRow[] {
  const q = query.trim().toLowerCase();
  const matches = (name: string) => q === '' || name.toLowerCase().includes(q);
  const byParent = childrenByParent(collections);
  const seen = new Set<string>();

  const walk = (parent: string | null, depth: number): TreeRow[] =>
    (byParent.get(parent) ?? []).flatMap((collection) => {
      if (seen.has(collection.id)) return []; // a cycle in bad data must not hang the popup
      seen.add(collection.id);
      const below = walk(collection.id, depth + 1);
      const match = matches(collection.name);
      return match || below.length > 0 ? [{ collection, depth, match }, ...below] : [];
    });

  const rows = walk(null, 0);
  return matches(UNSORTED) ? [{ collection: null, depth: 0, match: true }, ...rows] : rows;
}

/** The collection's name with its ancestors', `Work › Projects`, for a label outside the tree. */
export function collectionPath(collections: readonly Collection[], id: string): string | null {
  const byId = new Map(collections.map((c) => [c.id, c]));
  const names: string[] = [];
  for (let c = byId.get(id); c && names.length <= collections.length; c = c.parentId === null ? undefined : byId.get(c.parentId)) {
    names.unshift(c.name);
  }
  return names.length > 0 ? names.join(' › ') : null;
}
