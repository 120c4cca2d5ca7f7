import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Bookmark, BookmarkPage, BookmarkStats, DeletedResult, DomainCount, DuplicatesResult, EmptyTrashResult } from '../../lib/api/bookmarks.ts';
import { DAY } from '../../server/clock.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { addCollection, getBookmark, save, trashCollection } from './bookmarks-fixtures.ts';
import { count, rawRow } from './collections-tags-fixtures.ts';

let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started), { raiseLimits: true });

const trash = async (u: TestUser, id: string): Promise<Bookmark> => dataOf(await u.api('DELETE', `/bookmarks/${id}`), Bookmark);
const trashPage = async (u: TestUser, query = ''): Promise<BookmarkPage> => dataOf(await u.api('GET', `/bookmarks/trash?${query}`), BookmarkPage);
const tagLinks = (id: string): Promise<number> => count(db, 'SELECT COUNT(*) AS n FROM bookmark_tags WHERE bookmark_id = ?', id);

describe('DELETE /bookmarks/:id and POST /bookmarks/:id/restore', () => {
  it('trashes a bookmark: still readable by id, gone from every active view', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://gone.example/', tags: ['t'], isFavorite: true });
    await save(u, { url: 'http://gone.example' });
    await t.advance(1000);
    const trashed = await trash(u, b.id);
    expect(trashed).toMatchObject({ id: b.id, deletedAt: expect.any(String), tags: ['t'] });
    expect(Date.parse(trashed.deletedAt!)).toBeGreaterThan(Date.parse(b.createdAt));
    expect(await getBookmark(u, b.id)).toEqual(trashed);

    expect(dataOf(await u.api('GET', '/bookmarks'), BookmarkPage).data.map((x) => x.id)).not.toContain(b.id);
    expect(dataOf(await u.api('GET', '/bookmarks/search?q=gone'), z.array(Bookmark)).map((x) => x.id)).not.toContain(b.id);
    expect(dataOf(await u.api('GET', '/bookmarks/domains'), z.array(DomainCount))).toEqual([{ domain: 'gone.example', count: 1 }]);
    expect(dataOf(await u.api('GET', '/bookmarks/stats'), BookmarkStats)).toMatchObject({ total: 1, favorites: 0 });
    expect(dataOf(await u.api('GET', '/bookmarks/duplicates'), DuplicatesResult).groups).toEqual([]);
  });

  it('answers an already trashed bookmark unchanged', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://twice.example/' });
    const first = await trash(u, b.id);
    await t.advance(1000);
    expect(await trash(u, b.id)).toEqual(first);
  });

  it('restores a trashed bookmark into its collection, and answers an active one unchanged', async () => {
    const u = await t.user();
    const col = await addCollection(db, u.userId);
    const b = await save(u, { url: 'https://back.example/', collectionId: col });
    await trash(u, b.id);
    const restored = dataOf(await u.api('POST', `/bookmarks/${b.id}/restore`), Bookmark);
    expect(restored).toMatchObject({ id: b.id, deletedAt: null, collectionId: col });
    expect(dataOf(await u.api('GET', '/bookmarks'), BookmarkPage).data.map((x) => x.id)).toEqual([b.id]);
    expect(dataOf(await u.api('POST', `/bookmarks/${b.id}/restore`), Bookmark)).toEqual(restored);
  });

  it('restores into Unsorted, out of the collection\'s trash, when its collection is trashed or gone', async () => {
    const u = await t.user();
    const col = await addCollection(db, u.userId);
    const inTrashed = await save(u, { url: 'https://cascade.example/1', collectionId: col });
    await trashCollection(db, col, t.server.deps.clock.now());
    expect(await rawRow(db, 'bookmarks', inTrashed.id)).toMatchObject({ trash_root: col });
    const restored = dataOf(await u.api('POST', `/bookmarks/${inTrashed.id}/restore`), Bookmark);
    expect(restored).toMatchObject({ collectionId: null, deletedAt: null });
    expect(await rawRow(db, 'bookmarks', inTrashed.id)).toMatchObject({ trash_root: null, collection_id: null });

    const gone = await addCollection(db, u.userId);
    const orphan = await save(u, { url: 'https://cascade.example/2', collectionId: gone });
    await trash(u, orphan.id);
    await db.run('DELETE FROM collections WHERE id = ?', gone);
    expect(dataOf(await u.api('POST', `/bookmarks/${orphan.id}/restore`), Bookmark).collectionId).toBeNull();
  });

  it('answers 404 for unknown ids', async () => {
    const u = await t.user();
    expectError(await u.api('DELETE', '/bookmarks/bm_nope'), 404, 'NOT_FOUND');
    expectError(await u.api('POST', '/bookmarks/bm_nope/restore'), 404, 'NOT_FOUND');
  });
});

describe('GET /bookmarks/trash', () => {
  it('lists trashed bookmarks, most recently trashed first, page by page', async () => {
    const u = await t.user();
    const made: Bookmark[] = [];
    for (let i = 0; i < 5; i++) made.push(await save(u, { url: `https://t.example/${i}` }));
    await save(u, { url: 'https://t.example/active' });
    for (const i of [3, 0, 4, 1, 2]) {
      await trash(u, made[i]!.id);
      await t.advance(10);
    }
    const first = await trashPage(u, 'limit=2');
    expect(first).toMatchObject({ hasMore: true, truncated: false });
    const second = await trashPage(u, `limit=2&cursor=${first.cursor}`);
    const third = await trashPage(u, `limit=2&cursor=${second.cursor}`);
    expect(third).toMatchObject({ hasMore: false, cursor: null });
    const order = [first, second, third].flatMap((p) => p.data.map((b) => b.id));
    expect(order).toEqual([2, 1, 4, 0, 3].map((i) => made[i]!.id));
    expect([first, second, third].flatMap((p) => p.data).every((b) => b.deletedAt !== null)).toBe(true);
  });

  it('refuses a cursor from the bookmark list, and bad limits', async () => {
    const u = await t.user();
    await save(u, { url: 'https://c.example/1' });
    await save(u, { url: 'https://c.example/2' });
    const listCursor = dataOf(await u.api('GET', '/bookmarks?limit=1'), BookmarkPage).cursor;
    expect(expectError(await u.api('GET', `/bookmarks/trash?cursor=${listCursor}`), 400, 'VALIDATION_ERROR')).toContain('cursor');
    expectError(await u.api('GET', '/bookmarks/trash?limit=-1'), 400, 'VALIDATION_ERROR');
  });
});

describe('DELETE /bookmarks/:id/permanent', () => {
  it('removes an active or trashed bookmark and its tag links; the tags stay', async () => {
    const u = await t.user();
    const active = await save(u, { url: 'https://perm.example/1', tags: ['keep'] });
    const trashed = await save(u, { url: 'https://perm.example/2', tags: ['keep'] });
    await trash(u, trashed.id);
    for (const b of [active, trashed]) {
      expect(dataOf(await u.api('DELETE', `/bookmarks/${b.id}/permanent`), DeletedResult)).toEqual({ id: b.id, deleted: true });
      expectError(await u.api('GET', `/bookmarks/${b.id}`), 404, 'NOT_FOUND');
      expect(await rawRow(db, 'bookmarks', b.id)).toBeUndefined();
      expect(await tagLinks(b.id)).toBe(0);
    }
    expect(await db.all('SELECT name FROM tags WHERE user_id = ?', u.userId)).toEqual([{ name: 'keep' }]);
    expectError(await u.api('DELETE', `/bookmarks/${active.id}/permanent`), 404, 'NOT_FOUND');
  });

  it('lets the URL be saved anew afterwards', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://again.example/' });
    await u.api('DELETE', `/bookmarks/${b.id}/permanent`);
    expect((await save(u, { url: 'https://again.example/' }, 201)).id).not.toBe(b.id);
  });
});

describe('DELETE /bookmarks/trash', () => {
  it("removes all of the user's trashed bookmarks and nothing else", async () => {
    const u = await t.user();
    const stranger = await t.user();
    const keep = await save(u, { url: 'https://empty.example/keep' });
    for (let i = 0; i < 3; i++) await trash(u, (await save(u, { url: `https://empty.example/${i}`, tags: ['x'] })).id);
    const theirs = await save(stranger, { url: 'https://empty.example/theirs' });
    await trash(stranger, theirs.id);

    expect(dataOf(await u.api('DELETE', '/bookmarks/trash'), EmptyTrashResult)).toEqual({ deleted: 3 });
    expect((await trashPage(u)).data).toEqual([]);
    expect(await getBookmark(u, keep.id)).toEqual(keep);
    expect((await trashPage(stranger)).data.map((b) => b.id)).toEqual([theirs.id]);
    expect(dataOf(await u.api('DELETE', '/bookmarks/trash'), EmptyTrashResult)).toEqual({ deleted: 0 });
  });
});

describe('trash retention', () => {
  it('purges bookmarks trashed more than 30 days ago, keeps younger ones', async () => {
    // A server of its own: moving the clock by a month must not touch the other tests.
    const s = await startTestServer({ raiseLimits: true });
    try {
      const u = await s.user();
      const old = await save(u, { url: 'https://old.example/' });
      const young = await save(u, { url: 'https://young.example/' });
      const active = await save(u, { url: 'https://active.example/' });
      await u.api('DELETE', `/bookmarks/${old.id}`);
      await s.advance(2 * DAY);
      await u.api('DELETE', `/bookmarks/${young.id}`);
      await s.advance(29 * DAY);

      expectError(await u.api('GET', `/bookmarks/${old.id}`), 404, 'NOT_FOUND');
      expect(dataOf(await u.api('GET', `/bookmarks/${young.id}`), Bookmark).deletedAt).not.toBeNull();
      expect(dataOf(await u.api('GET', `/bookmarks/${active.id}`), Bookmark).deletedAt).toBeNull();

      await s.advance(2 * DAY);
      expectError(await u.api('GET', `/bookmarks/${young.id}`), 404, 'NOT_FOUND');
      expect(dataOf(await u.api('GET', `/bookmarks/${active.id}`), Bookmark).deletedAt).toBeNull();
    } finally {
      await s.close();
    }
  });
});
