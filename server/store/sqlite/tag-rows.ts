import type { Db } from '../../db/database.ts';
import { newId } from '../../ids.ts';

/** Tag names are unique per user regardless of case; the first spelling is kept. */
export const tagKey = (name: string): string => name.toLowerCase();

/** "a/b/c" → ["a", "a/b", "a/b/c"]: a hierarchical tag needs each of its ancestors. */
export function withAncestors(name: string): string[] {
  const parts = name.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/**
 * Finds or creates each named tag and its ancestors (call inside a transaction);
 * answers the ids of the named tags, in order.
 */
export function ensureTags(db: Db, userId: string, names: readonly string[], now: number): string[] {
  const find = db.prepare<[string, string], { id: string }>('SELECT id FROM tags WHERE user_id = ? AND name_key = ?');
  const insert = db.prepare(
    'INSERT INTO tags (id, user_id, name, name_key, color, parent_id, created_at) VALUES (?, ?, ?, ?, NULL, ?, ?)',
  );
  const ids: string[] = [];
  for (const name of names) {
    let parentId: string | null = null;
    for (const level of withAncestors(name)) {
      let id = find.get(userId, tagKey(level))?.id;
      if (id === undefined) {
        id = newId('tag');
        insert.run(id, userId, level, tagKey(level), parentId, now);
      }
      parentId = id;
    }
    ids.push(parentId!);
  }
  return ids;
}

/** Makes a bookmark's tags exactly these names (call inside a transaction). */
export function setBookmarkTags(db: Db, userId: string, bookmarkId: string, names: readonly string[], now: number): void {
  const ids = ensureTags(db, userId, names, now);
  db.prepare('DELETE FROM bookmark_tags WHERE bookmark_id = ?').run(bookmarkId);
  const link = db.prepare('INSERT OR IGNORE INTO bookmark_tags (bookmark_id, tag_id) VALUES (?, ?)');
  for (const id of ids) link.run(bookmarkId, id);
}
