/** The columns of a collection that place it in its user's tree (a type, so that it is a row of any driver). */
export type TreeRow = {
  id: string;
  parent_id: string | null;
  deleted_at: number | null;
  trash_root: string | null;
};

/**
 * One user's collections as a tree, active and trashed alike, to walk in memory.
 * Moves never make a cycle; the walks still refuse to loop should one exist.
 */
export class CollectionTree {
  private byId = new Map<string, TreeRow>();
  private children = new Map<string, TreeRow[]>();

  constructor(rows: readonly TreeRow[]) {
    for (const row of rows) {
      this.byId.set(row.id, row);
      if (row.parent_id === null) continue;
      const siblings = this.children.get(row.parent_id) ?? [];
      siblings.push(row);
      this.children.set(row.parent_id, siblings);
    }
  }

  /** The user's collections, active and trashed. */
  get size(): number {
    return this.byId.size;
  }

  get(id: string): TreeRow | undefined {
    return this.byId.get(id);
  }

  /** Ancestors above the collection (0 for a root); a parent that is gone ends the chain. */
  depth(id: string): number {
    const seen = new Set([id]);
    let parent = this.byId.get(id)?.parent_id;
    while (parent != null && this.byId.has(parent) && !seen.has(parent)) {
      seen.add(parent);
      parent = this.byId.get(parent)?.parent_id;
    }
    return seen.size - 1;
  }

  /**
   * The collection and those of its descendants reachable through collections
   * that pass `include`, each with its level below the collection (0 for itself).
   */
  subtree(id: string, include: (row: TreeRow) => boolean): { id: string; level: number }[] {
    const found = [{ id, level: 0 }];
    const seen = new Set([id]);
    for (let i = 0; i < found.length; i++) {
      const { id: current, level } = found[i]!;
      for (const child of this.children.get(current) ?? []) {
        if (seen.has(child.id) || !include(child)) continue;
        seen.add(child.id);
        found.push({ id: child.id, level: level + 1 });
      }
    }
    return found;
  }
}
