import type { InterchangeBookmark, InterchangeCollection } from './types.ts';

export function pathKey(path: readonly string[]): string {
  return JSON.stringify(path);
}

export type CollectionAttributes = Partial<Omit<InterchangeCollection, 'path'>>;

/**
 * Collects folders in first-seen order. Ancestors are added before a folder, so the
 * list is always parents-first even when a file mentions only the deepest folder.
 */
export class CollectionSet {
  private readonly byKey = new Map<string, InterchangeCollection>();

  add(path: readonly string[], attributes: CollectionAttributes = {}): void {
    if (path.length === 0) return;
    for (let depth = 1; depth < path.length; depth += 1) this.ensure(path.slice(0, depth));
    const collection = this.ensure(path);
    if (attributes.icon !== undefined) collection.icon = attributes.icon;
    if (attributes.color !== undefined) collection.color = attributes.color;
    if (attributes.notes !== undefined) collection.notes = attributes.notes;
  }

  list(): InterchangeCollection[] {
    return [...this.byKey.values()];
  }

  private ensure(path: readonly string[]): InterchangeCollection {
    const key = pathKey(path);
    let collection = this.byKey.get(key);
    if (collection === undefined) {
      collection = { path: [...path], icon: '', color: '', notes: '' };
      this.byKey.set(key, collection);
    }
    return collection;
  }
}

export interface CollectionNode {
  collection: InterchangeCollection;
  children: CollectionNode[];
}

/**
 * The folder tree an export writes: every listed collection plus any folder a bookmark
 * points at but the list forgot, siblings in first-seen order. Writers walk it depth
 * first, so every format emits collections in the same (tree) order.
 */
export function collectionTree(
  collections: readonly InterchangeCollection[],
  bookmarks: readonly InterchangeBookmark[],
): CollectionNode[] {
  const set = new CollectionSet();
  for (const collection of collections) set.add(collection.path, collection);
  for (const bookmark of bookmarks) set.add(bookmark.collectionPath);

  const roots: CollectionNode[] = [];
  const nodes = new Map<string, CollectionNode>();
  for (const collection of set.list()) {
    const node: CollectionNode = { collection, children: [] };
    nodes.set(pathKey(collection.path), node);
    const parent = nodes.get(pathKey(collection.path.slice(0, -1)));
    (parent?.children ?? roots).push(node);
  }
  return roots;
}

export function* walkTree(nodes: readonly CollectionNode[]): Generator<InterchangeCollection> {
  for (const node of nodes) {
    yield node.collection;
    yield* walkTree(node.children);
  }
}
