/** What a tree shows of an item: collections and tags both have an id, a parent and a label. */
export interface TreeItem {
  id: string;
  parentId: string | null;
  label: string;
  /** Drawn beside the label when set (a CSS colour). */
  color?: string | null;
}

export interface Row<T extends TreeItem> {
  item: T;
  /** 0 at the top level. */
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
  /** False for an ancestor shown only to place a match in the tree. */
  match: boolean;
  /** Its place among the siblings shown (ARIA's aria-posinset / aria-setsize: the tree is virtualised). */
  position: number;
  siblings: number;
}

/**
 * The rows of a tree as shown: children under their expanded parents, in the
 * order given. With a query, the items whose label contains it and, to place
 * them, their ancestors, all expanded. An item whose parent is unknown is a root.
 */
export function visibleRows<T extends TreeItem>(items: readonly T[], collapsed: ReadonlySet<string>, query: string): Row<T>[] {
  const q = query.trim().toLowerCase();
  const ids = new Set(items.map((i) => i.id));
  const byParent = new Map<string | null, T[]>();
  for (const item of items) {
    const parent = item.parentId !== null && ids.has(item.parentId) ? item.parentId : null;
    const siblings = byParent.get(parent);
    if (siblings) siblings.push(item);
    else byParent.set(parent, [item]);
  }
  const seen = new Set<string>();
  const walk = (parent: string | null, depth: number): Row<T>[] => {
    const shown: { item: T; match: boolean; below: Row<T>[] }[] = [];
    for (const item of byParent.get(parent) ?? []) {
      if (seen.has(item.id)) continue; // a cycle in bad data must not hang the page
      seen.add(item.id);
      const below = walk(item.id, depth + 1);
      const match = q === '' || item.label.toLowerCase().includes(q);
      if (match || below.length > 0) shown.push({ item, match, below });
    }
    return shown.flatMap(({ item, match, below }, i) => {
      const expanded = below.length > 0 && (q !== '' || !collapsed.has(item.id));
      const row: Row<T> = { item, depth, hasChildren: below.length > 0, expanded, match, position: i + 1, siblings: shown.length };
      return expanded ? [row, ...below] : [row];
    });
  };
  return walk(null, 0);
}

/** The item and everything under it. */
export function subtreeOf<T extends Pick<TreeItem, 'id' | 'parentId'>>(items: readonly T[], id: string): T[] {
  const byParent = new Map<string, T[]>();
  for (const item of items) {
    if (item.parentId === null) continue;
    const siblings = byParent.get(item.parentId);
    if (siblings) siblings.push(item);
    else byParent.set(item.parentId, [item]);
  }
  const out: T[] = [];
  const seen = new Set<string>();
  const visit = (item: T) => {
    if (seen.has(item.id)) return;
    seen.add(item.id);
    out.push(item);
    for (const child of byParent.get(item.id) ?? []) visit(child);
  };
  const root = items.find((i) => i.id === id);
  if (root) visit(root);
  return out;
}

/** The collapsed set after a row is opened (`expanded`) or closed. */
export function toggled(collapsed: ReadonlySet<string>, id: string, expanded: boolean): ReadonlySet<string> {
  const next = new Set(collapsed);
  if (expanded) next.delete(id);
  else next.add(id);
  return next;
}
