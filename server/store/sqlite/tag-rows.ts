import type { Db } from '../../db/database.ts';
import { conflict } from '../../http/api-error.ts';
import { newId } from '../../ids.ts';
import { overTagCap, tagKey, withAncestors } from '../shared/tag-names.ts';

const findTag = (db: Db) => db.prepare<[string, string], { id: string }>('SELECT id FROM tags WHERE user_id = ? AND name_key = ?');

export const userTagCount = (db: Db, userId: string): number =>
  db.prepare<[string], number>('SELECT COUNT(*) FROM tags WHERE user_id = ?').pluck().get(userId)!;

/** How many tags (the names and their ancestors) would be new for the user. */
export function newTagCount(db: Db, userId: string, names: readonly string[]): number {
  const find = findTag(db);
  const missing = new Set<string>();
  for (const name of names) {
    for (const level of withAncestors(name)) {
      const key = tagKey(level);
      if (!missing.has(key) && find.get(userId, key) === undefined) missing.add(key);
    }
  }
  return missing.size;
}

/** Refuses (409 CONFLICT) when these names would take the user past MAX_TAGS_PER_USER. */
export function checkTagCap(db: Db, userId: string, names: readonly string[]): void {
  const adding = newTagCount(db, userId, names);
  const refusal = adding === 0 ? null : overTagCap(userTagCount(db, userId), adding);
  if (refusal !== null) throw conflict(refusal);
}

/**
 * Finds or creates each named tag and its ancestors (call inside a transaction);
 * answers the ids of the named tags, in order. Refuses names that would take the
 * user past MAX_TAGS_PER_USER, creating nothing.
 */
export function ensureTags(db: Db, userId: string, names: readonly string[], now: number): string[] {
  checkTagCap(db, userId, names);
  return findOrCreateTags(db, userId, names, now);
}

/** As ensureTags, for a caller that has checked the cap itself (the import writer keeps its own count). */
export function findOrCreateTags(db: Db, userId: string, names: readonly string[], now: number): string[] {
  const find = findTag(db);
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
