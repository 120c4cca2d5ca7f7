import type { Sql } from '../../db/postgres/pg.ts';
import { newId } from '../../ids.ts';
import type { InterchangeCollection } from '../../interchange/types.ts';
import { newSlug } from '../shared/collection-rows.ts';
import { CappedFolders } from '../shared/import-lookups.ts';

/** A collection an import needs at a path; `created`: the last level's attributes, should it be made. */
export interface WantedCollection {
  path: readonly string[];
  created?: Partial<InterchangeCollection>;
}

/** The active children of one parent, as far as an import matches and orders them. */
interface Children {
  /** By lowercased name: the oldest of a name. */
  byName: Map<string, string>;
  /** The largest sort order among them; null when there are none. */
  maxOrder: number | null;
}

const ROOT = '';

/**
 * The collection at each path, found level by level (an active collection of that name,
 * case-insensitively, under the same parent; the oldest if several) or made, with `created`'s
 * attributes for the last level and none for the levels above it; null for the empty path.
 * Call inside a transaction locked on the user. However many paths, it costs one read per level
 * of the tree (the children of every parent the paths pass through) and one INSERT of the
 * collections made, in the order SQLite's writer makes them one at a time: paths in order,
 * parents first, each after its parent's existing children. Once the account holds
 * MAX_COLLECTIONS_PER_USER collections a path ends at the deepest level found or made (null:
 * Unsorted) and the levels not made go to `capped`; the user's collections are counted only
 * when a path needs a new one.
 */
export async function collectionsAt(
  tx: Sql,
  userId: string,
  wanted: readonly WantedCollection[],
  now: number,
  capped: CappedFolders,
): Promise<(string | null)[]> {
  const children = await existingChildren(tx, userId, wanted.map((w) => w.path));
  let count = wanted.some(({ path }) => !found(children, path)) ? await collectionCount(tx, userId) : 0;
  const made: { id: string; name: string; parentId: string | null; order: number; icon: string; color: string; notes: string }[] = [];
  const ids = wanted.map(({ path, created = {} }) => {
    let parentId: string | null = null;
    for (const [level, name] of path.entries()) {
      const siblings: Children = children.get(parentId ?? ROOT)!;
      let id = siblings.byName.get(name.toLowerCase());
      if (id === undefined) {
        if (!CappedFolders.room(count)) {
          capped.add(path, level);
          break;
        }
        count++;
        id = newId('col');
        const last = level === path.length - 1;
        const order = siblings.maxOrder === null ? 0 : siblings.maxOrder + 1;
        made.push({ id, name, parentId, order, icon: last ? (created.icon ?? '') : '', color: last ? (created.color ?? '') : '', notes: last ? (created.notes ?? '') : '' });
        siblings.byName.set(name.toLowerCase(), id);
        siblings.maxOrder = order;
        children.set(id, { byName: new Map(), maxOrder: null });
      }
      parentId = id;
    }
    return parentId;
  });
  if (made.length > 0) {
    await tx.run(
      `INSERT INTO collections (id, user_id, name, icon, color, parent_id, sort_order, notes, share_slug, created_at, updated_at)
       SELECT c.id, $1, c.name, c.icon, c.color, c.parent_id, c.sort_order, c.notes, c.slug, $2, $2
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[])
         WITH ORDINALITY AS c(id, name, icon, color, parent_id, sort_order, notes, slug, i)
       ORDER BY c.i`,
      [
        userId,
        now,
        made.map((c) => c.id),
        made.map((c) => c.name),
        made.map((c) => c.icon),
        made.map((c) => c.color),
        made.map((c) => c.parentId),
        made.map((c) => c.order),
        made.map((c) => c.notes),
        made.map(() => newSlug()),
      ],
    );
  }
  return ids;
}

/** Whether every level of the path exists already. */
function found(children: Map<string, Children>, path: readonly string[]): boolean {
  let parentId: string | undefined = ROOT;
  for (const name of path) {
    parentId = parentId === undefined ? undefined : children.get(parentId)?.byName.get(name.toLowerCase());
    if (parentId === undefined) return false;
  }
  return true;
}

/** The user's collections, trashed ones included, as the cap counts them. */
async function collectionCount(tx: Sql, userId: string): Promise<number> {
  const row = await tx.get<{ n: number }>('SELECT COUNT(*)::int AS n FROM collections WHERE user_id = $1', [userId]);
  return row?.n ?? 0;
}

/**
 * The active children of the root and of every existing collection the paths pass through
 * ('' for the root), read a level of the tree at a time: each level's parents are the
 * collections the level above found.
 */
async function existingChildren(tx: Sql, userId: string, paths: readonly (readonly string[])[]): Promise<Map<string, Children>> {
  const children = new Map<string, Children>();
  let reaching = paths.filter((p) => p.length > 0).map((path) => ({ path, parentId: null as string | null }));
  for (let depth = 0; reaching.length > 0; depth++) {
    const unread = [...new Set(reaching.map((r) => r.parentId ?? ROOT))].filter((key) => !children.has(key));
    if (unread.length > 0) await readChildren(tx, userId, unread, children);
    reaching = reaching.flatMap(({ path, parentId }) => {
      const id = children.get(parentId ?? ROOT)!.byName.get(path[depth]!.toLowerCase());
      return id !== undefined && depth + 1 < path.length ? [{ path, parentId: id }] : [];
    });
  }
  return children;
}

async function readChildren(tx: Sql, userId: string, parents: readonly string[], into: Map<string, Children>): Promise<void> {
  for (const key of parents) into.set(key, { byName: new Map(), maxOrder: null });
  const rows = await tx.all<{ id: string; name: string; parent_id: string | null; sort_order: number }>(
    `SELECT id, name, parent_id, sort_order FROM collections
     WHERE user_id = $1 AND deleted_at IS NULL AND (parent_id = ANY($2::text[]) OR ($3 AND parent_id IS NULL))
     ORDER BY seq`,
    [userId, parents.filter((key) => key !== ROOT), parents.includes(ROOT)],
  );
  for (const row of rows) {
    const siblings = into.get(row.parent_id ?? ROOT)!;
    const name = row.name.toLowerCase();
    if (!siblings.byName.has(name)) siblings.byName.set(name, row.id);
    siblings.maxOrder = Math.max(siblings.maxOrder ?? row.sort_order, row.sort_order);
  }
}
