import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Evaluation, SmartFolder } from '../../lib/api/smart-folders.ts';
import { dataOf } from '../support/expect.ts';
import type { ApiResponse, TestServer, TestUser } from '../support/server.ts';

/**
 * Helpers of the smart-folder tests. Bookmarks go through POST /bookmarks where
 * a handful is enough; thousands are written straight to the database (the API's
 * rate limits would make that take hours), with the columns the bookmarks module writes.
 */

export type Rules = { match: 'all' | 'any'; conditions: { field: string; operator: string; value: string }[] };

export async function createFolder(u: TestUser, rules: Rules, name = 'Folder'): Promise<SmartFolder> {
  return dataOf(await u.api('POST', '/smart-folders', { body: { name, rules } }), SmartFolder, 201);
}

export async function setRules(u: TestUser, id: string, rules: Rules): Promise<SmartFolder> {
  return dataOf(await u.api('PATCH', `/smart-folders/${id}`, { body: { rules } }), SmartFolder);
}

/**
 * GET /smart-folders/:id/bookmarks after moving the clock a minute, so that the
 * heavy-endpoint limit (2 a minute) never answers instead of the evaluation.
 */
export async function evaluateRaw(t: TestServer, u: TestUser, id: string, cursor?: string | null): Promise<ApiResponse> {
  await t.advance(60_000);
  const qs = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return u.api('GET', `/smart-folders/${id}/bookmarks${qs}`);
}

export async function evaluate(t: TestServer, u: TestUser, id: string, cursor?: string | null): Promise<Evaluation> {
  return dataOf(await evaluateRaw(t, u, id, cursor), Evaluation);
}

/** Follows continueCursor to the end, as rule 1 asks; answers every page. */
export async function evaluateAll(t: TestServer, u: TestUser, id: string): Promise<Evaluation[]> {
  const pages: Evaluation[] = [];
  let cursor: string | null = null;
  do {
    const page: Evaluation = await evaluate(t, u, id, cursor);
    pages.push(page);
    cursor = page.continueCursor;
    if (pages.length > 50) throw new Error('evaluation does not end');
  } while (cursor !== null);
  return pages;
}

export const ids = (pages: Evaluation | Evaluation[]): string[] =>
  (Array.isArray(pages) ? pages : [pages]).flatMap((p) => p.bookmarks.map((b) => b.id));

/** POST /bookmarks with title and description given, so that no page is fetched. */
export async function save(u: TestUser, body: { url: string } & Record<string, unknown>): Promise<Bookmark> {
  const res = await u.api('POST', '/bookmarks', { body: { title: `Title of ${body.url}`, description: '', ...body } });
  return dataOf(res, Bookmark, 201);
}

export { openDb } from '../support/server.ts';

export interface RawBookmark {
  createdAt: number;
  domain?: string;
  type?: string;
  isFavorite?: boolean;
  clickCount?: number;
  tags?: string[];
  trashed?: boolean;
  collectionId?: string;
}

/**
 * Inserts bookmarks in one transaction; tags are created as needed and linked in
 * the order given, so membership order follows the array. Trashed ones are trashed
 * now by the server's clock, so that the trash purge leaves them. Answers the ids in order.
 */
export function insertBookmarks(t: TestServer, db: Database.Database, userId: string, rows: readonly RawBookmark[]): string[] {
  const now = t.server.deps.clock.now();
  const insert = db.prepare(
    `INSERT INTO bookmarks (id, user_id, url, url_key, title, type, is_favorite, domain, click_count,
       metadata_status, link_status, last_checked_at, created_at, updated_at, deleted_at, collection_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'complete', 'unchecked', ?, ?, ?, ?, ?)`,
  );
  const findTag = db.prepare<[string, string], { id: string }>('SELECT id FROM tags WHERE user_id = ? AND name_key = ?');
  const insertTag = db.prepare('INSERT INTO tags (id, user_id, name, name_key, created_at) VALUES (?, ?, ?, ?, 0)');
  const link = db.prepare('INSERT INTO bookmark_tags (bookmark_id, tag_id) VALUES (?, ?)');
  const tagId = (name: string): string => {
    const found = findTag.get(userId, name.toLowerCase());
    if (found) return found.id;
    const id = `tag_${randomBytes(8).toString('hex')}`;
    insertTag.run(id, userId, name, name.toLowerCase());
    return id;
  };
  return db.transaction(() =>
    rows.map((r) => {
      const id = `bm_${randomBytes(8).toString('hex')}`;
      const domain = r.domain ?? 'example.com';
      const url = `https://${domain}/${id}`;
      insert.run(id, userId, url, `${domain}/${id}`, `Title ${id}`, r.type ?? 'link', r.isFavorite ? 1 : 0, domain,
        r.clickCount ?? 0, r.createdAt, r.createdAt, r.createdAt, r.trashed ? now : null, r.collectionId ?? null);
      for (const name of r.tags ?? []) link.run(id, tagId(name));
      return id;
    }),
  )();
}
