import { describe, expect, it } from 'vitest';
import { type Bookmark, Bookmark as BookmarkSchema } from '../../lib/api/bookmarks.ts';
import { BulkResult, BulkTagResult, MAX_BULK } from '../../lib/api/bulk.ts';
import { dataOf, expectError } from '../support/expect.ts';
import type { TestServer, TestUser } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { addCollection, getBookmark, save } from './bookmarks-fixtures.ts';

let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started), { raiseLimits: true });

async function library(u: TestUser, n: number, extra: Record<string, unknown> = {}): Promise<Bookmark[]> {
  const list: Bookmark[] = [];
  for (let i = 0; i < n; i++) list.push(await save(u, { url: `https://bulk.example/${i}`, ...extra }));
  return list;
}

/** Every bookmark as the API shows it now, to prove that a refused request changed nothing. */
const snapshot = (u: TestUser, list: Bookmark[]) => Promise.all(list.map((b) => getBookmark(u, b.id)));
/** The id of the user's tag of that name, or of their one tag. */
const tagId = async (userId: string, name: string | null = null): Promise<string> =>
  (await db.get<{ id: string }>('SELECT id FROM tags WHERE user_id = ? AND name = COALESCE(?, name)', userId, name))!.id;
const tagNames = async (userId: string) => (await db.all<{ name: string }>('SELECT name FROM tags WHERE user_id = ?', userId)).map((r) => r.name);

describe('input shared by every bulk route', () => {
  const routes: [string, string, Record<string, unknown>][] = [
    ['POST', '/bookmarks/bulk/trash', {}],
    ['POST', '/bookmarks/bulk/favorite', { isFavorite: true }],
    ['POST', '/bookmarks/bulk/move', { collectionId: null }],
    ['POST', '/bookmarks/bulk/tag', { name: 'never-created' }],
    ['DELETE', '/bookmarks/bulk/tag', { tagId: 'tag_x' }],
  ];

  it.each(routes)('%s %s refuses no ids, more than 50, and non-id values with 400', async (method, path, rest) => {
    const u = await t.user();
    for (const ids of [[], Array.from({ length: MAX_BULK + 1 }, (_, i) => `bm_${i}`), [''], 'bm_1', undefined]) {
      expect(expectError(await u.api(method, path, { body: { ...rest, ids } }), 400, 'VALIDATION_ERROR')).toContain('ids');
    }
  });

  it.each(routes)("%s %s answers 404 naming the ids that are not the user's, and changes nothing", async (method, path, rest) => {
    const u = await t.user();
    const stranger = await t.user();
    const mine = await library(u, 2, { tags: ['x'] });
    const [theirs] = await library(stranger, 1);
    const before = await snapshot(u, mine);
    const ids = [mine[0]!.id, theirs!.id, 'bm_unknown', mine[1]!.id];
    const message = expectError(await u.api(method, path, { body: { ...rest, ids } }), 404, 'NOT_FOUND');
    expect(message).toContain(theirs!.id);
    expect(message).toContain('bm_unknown');
    expect(message).not.toContain(mine[0]!.id);
    expect(await snapshot(u, mine)).toEqual(before);
    expect(await getBookmark(stranger, theirs!.id)).toEqual(theirs);
    expect(await tagNames(u.userId)).toEqual(['x']);
  });
});

describe('POST /bookmarks/bulk/trash', () => {
  it('trashes active bookmarks, counts only real changes, accepts duplicated ids', async () => {
    const u = await t.user();
    const [a, b, c] = await library(u, 3);
    await u.api('DELETE', `/bookmarks/${c!.id}`);
    const res = await u.api('POST', '/bookmarks/bulk/trash', { body: { ids: [a!.id, b!.id, a!.id, c!.id] } });
    expect(dataOf(res, BulkResult)).toEqual({ ids: [a!.id, b!.id, c!.id], changed: 2 });
    for (const x of [a, b, c]) expect((await getBookmark(u, x!.id)).deletedAt).not.toBeNull();
  });
});

describe('POST /bookmarks/bulk/favorite', () => {
  it('sets the flag and counts the bookmarks that changed', async () => {
    const u = await t.user();
    const [a, b] = await library(u, 2);
    await u.api('PUT', `/bookmarks/${a!.id}/favorite`, { body: { isFavorite: true } });
    expect(dataOf(await u.api('POST', '/bookmarks/bulk/favorite', { body: { ids: [a!.id, b!.id], isFavorite: true } }), BulkResult)).toEqual({
      ids: [a!.id, b!.id],
      changed: 1,
    });
    expect((await getBookmark(u, b!.id)).isFavorite).toBe(true);
    expect(dataOf(await u.api('POST', '/bookmarks/bulk/favorite', { body: { ids: [a!.id, b!.id], isFavorite: false } }), BulkResult).changed).toBe(2);
  });

  it('answers 409 when a bookmark is trashed, and changes nothing', async () => {
    const u = await t.user();
    const list = await library(u, 3);
    await u.api('DELETE', `/bookmarks/${list[2]!.id}`);
    const before = await snapshot(u, list);
    const res = await u.api('POST', '/bookmarks/bulk/favorite', { body: { ids: list.map((b) => b.id), isFavorite: true } });
    expect(expectError(res, 409, 'CONFLICT')).toContain(list[2]!.id);
    expect(await snapshot(u, list)).toEqual(before);
  });

  it('refuses a missing isFavorite', async () => {
    const u = await t.user();
    const [a] = await library(u, 1);
    expect(expectError(await u.api('POST', '/bookmarks/bulk/favorite', { body: { ids: [a!.id] } }), 400, 'VALIDATION_ERROR')).toContain('isFavorite');
  });
});

describe('POST /bookmarks/bulk/move', () => {
  it('moves into a collection and back to Unsorted', async () => {
    const u = await t.user();
    const col = await addCollection(db, u.userId);
    const [a, b] = await library(u, 2);
    await u.api('POST', `/bookmarks/${a!.id}/move`, { body: { collectionId: col } });
    expect(dataOf(await u.api('POST', '/bookmarks/bulk/move', { body: { ids: [a!.id, b!.id], collectionId: col } }), BulkResult).changed).toBe(1);
    expect((await getBookmark(u, b!.id)).collectionId).toBe(col);
    expect(dataOf(await u.api('POST', '/bookmarks/bulk/move', { body: { ids: [a!.id, b!.id], collectionId: null } }), BulkResult).changed).toBe(2);
    expect((await getBookmark(u, a!.id)).collectionId).toBeNull();
  });

  it('answers 404 for an unknown, trashed or foreign collection and 409 for a trashed bookmark, changing nothing', async () => {
    const u = await t.user();
    const stranger = await t.user();
    const list = await library(u, 2);
    const before = await snapshot(u, list);
    for (const collectionId of ['col_nope', await addCollection(db, u.userId, { deletedAt: 1 }), await addCollection(db, stranger.userId)]) {
      const res = await u.api('POST', '/bookmarks/bulk/move', { body: { ids: list.map((b) => b.id), collectionId } });
      expect(expectError(res, 404, 'NOT_FOUND')).toContain(collectionId);
    }
    expect(await snapshot(u, list)).toEqual(before);

    await u.api('DELETE', `/bookmarks/${list[1]!.id}`);
    const trashedBefore = await snapshot(u, list);
    const res = await u.api('POST', '/bookmarks/bulk/move', { body: { ids: list.map((b) => b.id), collectionId: await addCollection(db, u.userId) } });
    expectError(res, 409, 'CONFLICT');
    expect(await snapshot(u, list)).toEqual(trashedBefore);
  });
});

describe('POST /bookmarks/bulk/tag', () => {
  it('creates the tag when needed, links it, and answers the tag with its count', async () => {
    const u = await t.user();
    const [a, b, c] = await library(u, 3);
    await u.api('POST', `/bookmarks/${a!.id}/tags`, { body: { name: 'Read/Later' } });
    const res = await u.api('POST', '/bookmarks/bulk/tag', { body: { ids: [a!.id, b!.id, c!.id], name: 'read/later' } });
    const result = dataOf(res, BulkTagResult);
    expect(result).toMatchObject({ ids: [a!.id, b!.id, c!.id], changed: 2, tag: { name: 'Read/Later', count: 3, color: null } });
    for (const x of [a, b, c]) expect((await getBookmark(u, x!.id)).tags).toEqual(['Read/Later']);

    const fresh = dataOf(await u.api('POST', '/bookmarks/bulk/tag', { body: { ids: [a!.id], name: 'brand/new/tag' } }), BulkTagResult);
    expect(fresh).toMatchObject({ changed: 1, tag: { name: 'brand/new/tag', count: 1, parentId: expect.stringMatching(/^tag_/) } });
    expect((await tagNames(u.userId)).sort()).toEqual(['brand', 'brand/new', 'brand/new/tag', 'Read', 'Read/Later'].sort());
  });

  it('answers 409 for a trashed bookmark, creating no tag and linking nothing', async () => {
    const u = await t.user();
    const list = await library(u, 2);
    await u.api('DELETE', `/bookmarks/${list[0]!.id}`);
    const before = await snapshot(u, list);
    expectError(await u.api('POST', '/bookmarks/bulk/tag', { body: { ids: list.map((b) => b.id), name: 'never' } }), 409, 'CONFLICT');
    expect(await snapshot(u, list)).toEqual(before);
    expect(await tagNames(u.userId)).toEqual([]);
  });

  it('refuses a bad name', async () => {
    const u = await t.user();
    const [a] = await library(u, 1);
    expect(expectError(await u.api('POST', '/bookmarks/bulk/tag', { body: { ids: [a!.id], name: '/' } }), 400, 'VALIDATION_ERROR')).toContain('name');
    expect(await tagNames(u.userId)).toEqual([]);
  });
});

describe('DELETE /bookmarks/bulk/tag', () => {
  it('unlinks the tag from the named bookmarks only; the tag stays', async () => {
    const u = await t.user();
    const [a, b, c] = await library(u, 3, { tags: ['x', 'y'] });
    const x = await tagId(u.userId, 'x');
    await u.api('DELETE', `/bookmarks/${b!.id}/tags/${x}`);
    const res = await u.api('DELETE', '/bookmarks/bulk/tag', { body: { ids: [a!.id, b!.id], tagId: x } });
    expect(dataOf(res, BulkResult)).toEqual({ ids: [a!.id, b!.id], changed: 1 });
    expect((await getBookmark(u, a!.id)).tags).toEqual(['y']);
    expect((await getBookmark(u, c!.id)).tags).toEqual(['x', 'y']);
    expect((await tagNames(u.userId)).sort()).toEqual(['x', 'y']);
  });

  it("answers 404 for an unknown or another user's tag and 409 for a trashed bookmark, changing nothing", async () => {
    const u = await t.user();
    const stranger = await t.user();
    const list = await library(u, 2, { tags: ['x'] });
    await save(stranger, { url: 'https://theirs.example/', tags: ['x'] });
    const mineX = await tagId(u.userId);
    const theirsX = await tagId(stranger.userId);
    const before = await snapshot(u, list);
    for (const tagId of ['tag_nope', theirsX]) {
      expect(expectError(await u.api('DELETE', '/bookmarks/bulk/tag', { body: { ids: list.map((b) => b.id), tagId } }), 404, 'NOT_FOUND')).toContain(
        tagId,
      );
    }
    expect(await snapshot(u, list)).toEqual(before);

    await u.api('DELETE', `/bookmarks/${list[1]!.id}`);
    const trashedBefore = await snapshot(u, list);
    expectError(await u.api('DELETE', '/bookmarks/bulk/tag', { body: { ids: list.map((b) => b.id), tagId: mineX } }), 409, 'CONFLICT');
    expect(await snapshot(u, list)).toEqual(trashedBefore);
  });
});

it('bulk routes are not taken for bookmark ids (bulk/move is not /bookmarks/:id/move)', async () => {
  const u = await t.user();
  const [a] = await library(u, 1);
  const res = await u.api('POST', '/bookmarks/bulk/move', { body: { ids: [a!.id], collectionId: null } });
  expect(dataOf(res, BulkResult)).toEqual({ ids: [a!.id], changed: 0 });
  expect(BookmarkSchema.safeParse((res.body as { data: unknown }).data).success).toBe(false);
});
