import type { Sql } from '../../db/postgres/pg.ts';
import { conflict } from '../../http/api-error.ts';
import { newId } from '../../ids.ts';
import { overTagCap, tagKey, withAncestors } from '../shared/tag-names.ts';

/** The keys of the names and their ancestors, each once. */
const levelKeys = (names: readonly string[]): string[] => [...new Set(names.flatMap((name) => withAncestors(name).map(tagKey)))];

/** The ids of the tags the user has among these names and their ancestors, by name key. */
async function existingTags(sql: Sql, userId: string, names: readonly string[]): Promise<Map<string, string>> {
  const rows = await sql.all<{ id: string; name_key: string }>(
    'SELECT id, name_key FROM tags WHERE user_id = $1 AND name_key = ANY($2::text[])',
    [userId, levelKeys(names)],
  );
  return new Map(rows.map((r) => [r.name_key, r.id]));
}

export async function userTagCount(sql: Sql, userId: string): Promise<number> {
  const row = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM tags WHERE user_id = $1', [userId]);
  return row!.n;
}

/** How many tags (the names and their ancestors) would be new for the user. */
export async function newTagCount(sql: Sql, userId: string, names: readonly string[]): Promise<number> {
  return (await TagPlan.read(sql, userId, names)).missing(names);
}

/** Refuses (409 CONFLICT) when these names would take the user past MAX_TAGS_PER_USER. */
export async function checkTagCap(sql: Sql, userId: string, names: readonly string[]): Promise<void> {
  const adding = await newTagCount(sql, userId, names);
  const refusal = adding === 0 ? null : overTagCap(await userTagCount(sql, userId), adding);
  if (refusal !== null) throw conflict(refusal);
}

/**
 * Finds or creates each named tag and its ancestors (call inside a transaction locked on the
 * user); answers the ids of the named tags, in order. Refuses names that would take the user
 * past MAX_TAGS_PER_USER, creating nothing.
 */
export async function ensureTags(sql: Sql, userId: string, names: readonly string[], now: number): Promise<string[]> {
  await checkTagCap(sql, userId, names);
  return findOrCreateTags(sql, userId, names, now);
}

/** As ensureTags, for a caller that has checked the cap itself. */
export async function findOrCreateTags(sql: Sql, userId: string, names: readonly string[], now: number): Promise<string[]> {
  const plan = await TagPlan.read(sql, userId, names);
  const ids = plan.idsOf(names);
  await plan.create(sql, userId, now);
  return ids;
}

/**
 * The tags of several bookmarks, found in one statement and created in one more: the user's
 * tags among the names read once (call inside a transaction locked on the user), then the
 * missing ones given ids as they are met, ancestors first, and inserted together in that order
 * (as SQLite's loop inserts them one by one).
 */
export class TagPlan {
  private readonly created: { id: string; name: string; key: string; parentId: string | null }[] = [];

  private constructor(private readonly ids: Map<string, string>) {}

  /** The plan, knowing the user's tags among these names and their ancestors. */
  static async read(sql: Sql, userId: string, names: readonly string[]): Promise<TagPlan> {
    return new TagPlan(await existingTags(sql, userId, names));
  }

  /** How many of the names and their ancestors are neither the user's nor planned (names read with the plan). */
  missing(names: readonly string[]): number {
    return levelKeys(names).filter((key) => !this.ids.has(key)).length;
  }

  /** The ids of the named tags, in order, planning those missing (names read with the plan). */
  idsOf(names: readonly string[]): string[] {
    return names.map((name) => {
      let parentId: string | null = null;
      for (const level of withAncestors(name)) {
        const key = tagKey(level);
        let id = this.ids.get(key);
        if (id === undefined) {
          id = newId('tag');
          this.ids.set(key, id);
          this.created.push({ id, name: level, key, parentId });
        }
        parentId = id;
      }
      return parentId!;
    });
  }

  /** Inserts the tags planned so far. */
  async create(sql: Sql, userId: string, now: number): Promise<void> {
    const created = this.created.splice(0);
    if (created.length === 0) return;
    await sql.run(
      `INSERT INTO tags (id, user_id, name, name_key, color, parent_id, created_at)
       SELECT n.id, $1, n.name, n.key, NULL, n.parent_id, $2
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS n(id, name, key, parent_id, i) ORDER BY n.i`,
      [userId, now, created.map((t) => t.id), created.map((t) => t.name), created.map((t) => t.key), created.map((t) => t.parentId)],
    );
  }
}

/** Makes a bookmark's tags exactly these names (call inside a transaction locked on the user). */
export async function setBookmarkTags(sql: Sql, userId: string, bookmarkId: string, names: readonly string[], now: number): Promise<void> {
  const ids = await ensureTags(sql, userId, names, now);
  await sql.run('DELETE FROM bookmark_tags WHERE bookmark_id = $1', [bookmarkId]);
  await sql.run(
    `INSERT INTO bookmark_tags (bookmark_id, tag_id)
     SELECT $1, l.tag_id FROM unnest($2::text[]) WITH ORDINALITY AS l(tag_id, i) ORDER BY l.i
     ON CONFLICT DO NOTHING`,
    [bookmarkId, ids],
  );
}
