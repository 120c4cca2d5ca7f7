import { vi } from 'vitest';
import { Bookmark, BookmarkPage } from '../../lib/api/bookmarks.ts';
import { dataOf } from '../support/expect.ts';
import type { RawDb } from '../support/raw-db.ts';
import type { TestServer, TestUser } from '../support/server.ts';

/**
 * Helpers shared by the bookmark test files. Collections are written straight to
 * the database so that these tests do not depend on the collections routes.
 */

export type NewBookmark = { url: string } & Record<string, unknown>;

/** POST /bookmarks with a title and description, so that no page is fetched. */
export async function save(u: TestUser, body: NewBookmark, status = 201): Promise<Bookmark> {
  const res = await u.api('POST', '/bookmarks', { body: { title: `Title of ${body.url}`, description: '', ...body } });
  return dataOf(res, Bookmark, status);
}

/** updatedAt as ms (the shared schema has it optional, for servers that only follow the spec; ours always sends it). */
export const updatedMs = (b: Bookmark): number => Date.parse(b.updatedAt ?? '');

export async function getBookmark(u: TestUser, id: string): Promise<Bookmark> {
  return dataOf(await u.api('GET', `/bookmarks/${id}`), Bookmark);
}

/** Every page of GET /bookmarks with the given query, following cursors. */
export async function allPages(u: TestUser, query: string, between?: () => Promise<void>): Promise<{ pages: BookmarkPage[]; ids: string[] }> {
  const pages: BookmarkPage[] = [];
  let cursor: string | null = null;
  do {
    const qs: string = cursor === null ? query : `${query}&cursor=${cursor}`;
    const page: BookmarkPage = dataOf(await u.api('GET', `/bookmarks?${qs}`), BookmarkPage);
    pages.push(page);
    cursor = page.cursor;
    if (between) await between();
    if (pages.length > 500) throw new Error('paging does not end');
  } while (cursor !== null);
  return { pages, ids: pages.flatMap((p) => p.data.map((b) => b.id)) };
}

/** Freezes the server clock at its current time (so that rows share created_at); returns the undo. */
export function freezeClock(t: TestServer): { at: number; restore: () => void } {
  const at = t.server.deps.clock.now();
  const spy = vi.spyOn(t.server.deps.clock, 'now').mockReturnValue(at);
  return { at, restore: () => spy.mockRestore() };
}

let collectionCounter = 0;
export async function addCollection(db: RawDb, userId: string, options: { deletedAt?: number } = {}): Promise<string> {
  const id = `col_fixture${++collectionCounter}`;
  await db.run(
    `INSERT INTO collections (id, user_id, name, share_slug, created_at, updated_at, deleted_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    id, userId, `Collection ${collectionCounter}`, `slug-${id}`, 0, 0, options.deletedAt ?? null,
  );
  return id;
}

/** What a collection DELETE does to it and its bookmarks (the collections module's cascade, reduced to the columns). */
export async function trashCollection(db: RawDb, collectionId: string, now: number): Promise<void> {
  await db.run('UPDATE collections SET deleted_at = ?, trash_root = id WHERE id = ?', now, collectionId);
  await db.run('UPDATE bookmarks SET deleted_at = ?, trash_root = ? WHERE collection_id = ? AND deleted_at IS NULL', now, collectionId, collectionId);
}

