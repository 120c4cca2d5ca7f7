import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Evaluation, SmartFolder } from '../../lib/api/smart-folders.ts';
import { dataOf } from '../support/expect.ts';
import { type RawDb, openRawDb } from '../support/raw-db.ts';
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

/** A connection of the test's own to the test server's database, whichever backend it runs on. */
export const openRawDbOf = (t: TestServer): RawDb => openRawDb(t.server.deps.config);

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

type Value = string | number | null;

const BOOKMARK_INSERT = `INSERT INTO bookmarks (id, user_id, url, url_key, title, type, is_favorite, domain, click_count,
  metadata_status, link_status, last_checked_at, created_at, updated_at, deleted_at, collection_id) VALUES `;
const BOOKMARK_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?, ?, 'complete', 'unchecked', ?, ?, ?, ?, ?)";
const TAG_INSERT = 'INSERT INTO tags (id, user_id, name, name_key, created_at) VALUES ';
const TAG_VALUES = '(?, ?, ?, ?, 0)';
const LINK_INSERT = 'INSERT INTO bookmark_tags (bookmark_id, tag_id) VALUES ';
const LINK_VALUES = '(?, ?)';
const FIND_TAG = 'SELECT id FROM tags WHERE user_id = ? AND name_key = ?';

/** The first spelling of each tag name the rows carry, by key. */
function tagNames(rows: readonly RawBookmark[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const name of rows.flatMap((r) => r.tags ?? [])) if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  return names;
}

/** The rows to write, given the ids of the user's tags that exist already; links in the order given. */
function fixtureRows(t: TestServer, userId: string, rows: readonly RawBookmark[], existing: Map<string, string>) {
  const now = t.server.deps.clock.now();
  const tagIds = new Map(existing);
  const tags: Value[][] = [];
  for (const [key, name] of tagNames(rows)) {
    if (tagIds.has(key)) continue;
    const id = `tag_${randomBytes(8).toString('hex')}`;
    tagIds.set(key, id);
    tags.push([id, userId, name, key]);
  }
  const ids = rows.map(() => `bm_${randomBytes(8).toString('hex')}`);
  const bookmarks = rows.map((r, i): Value[] => {
    const domain = r.domain ?? 'example.com';
    return [ids[i]!, userId, `https://${domain}/${ids[i]}`, `${domain}/${ids[i]}`, `Title ${ids[i]}`, r.type ?? 'link', r.isFavorite ? 1 : 0,
      domain, r.clickCount ?? 0, r.createdAt, r.createdAt, r.createdAt, r.trashed ? now : null, r.collectionId ?? null];
  });
  const links = rows.flatMap((r, i) => (r.tags ?? []).map((name): Value[] => [ids[i]!, tagIds.get(name.toLowerCase())!]));
  return { ids, tags, bookmarks, links };
}

/**
 * Inserts bookmarks in one transaction; tags are created as needed and linked in
 * the order given, so membership order follows the array. Trashed ones are trashed
 * now by the server's clock, so that the trash purge leaves them. Answers the ids in order.
 */
export function insertBookmarks(t: TestServer, db: Database.Database, userId: string, rows: readonly RawBookmark[]): string[] {
  const find = db.prepare<[string, string], { id: string }>(FIND_TAG);
  return db.transaction(() => {
    const existing = new Map<string, string>();
    for (const key of tagNames(rows).keys()) {
      const found = find.get(userId, key);
      if (found) existing.set(key, found.id);
    }
    const written = fixtureRows(t, userId, rows, existing);
    const insert = (head: string, values: string, all: Value[][]) => {
      const statement = db.prepare(head + values);
      for (const row of all) statement.run(...row);
    };
    insert(TAG_INSERT, TAG_VALUES, written.tags);
    insert(BOOKMARK_INSERT, BOOKMARK_VALUES, written.bookmarks);
    insert(LINK_INSERT, LINK_VALUES, written.links);
    return written.ids;
  })();
}

const CHUNK = 400;

/** insertBookmarks on either backend, in statements of many rows; membership order still follows the array. */
export async function insertBookmarksRaw(t: TestServer, db: RawDb, userId: string, rows: readonly RawBookmark[]): Promise<string[]> {
  const existing = new Map<string, string>();
  for (const key of tagNames(rows).keys()) {
    const found = await db.get<{ id: string }>(FIND_TAG, userId, key);
    if (found) existing.set(key, found.id);
  }
  const written = fixtureRows(t, userId, rows, existing);
  const insert = async (head: string, values: string, all: Value[][]) => {
    for (let i = 0; i < all.length; i += CHUNK) {
      const chunk = all.slice(i, i + CHUNK);
      await db.run(head + chunk.map(() => values).join(', '), ...chunk.flat());
    }
  };
  await insert(TAG_INSERT, TAG_VALUES, written.tags);
  await insert(BOOKMARK_INSERT, BOOKMARK_VALUES, written.bookmarks);
  await insert(LINK_INSERT, LINK_VALUES, written.links);
  return written.ids;
}
