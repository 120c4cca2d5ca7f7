import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import {
  COLLECTION_ROW_LIMIT,
  Collection,
  CollectionBookmarksPage,
  MAX_COLLECTION_DEPTH,
} from '../../lib/api/collections.ts';
import { CollectionTrashResult, ShareState } from '../../lib/api/collection-edits.ts';
import { DAY } from '../../server/clock.ts';
import { dataOf, expectError } from '../support/expect.ts';
import type { TestServer, TestUser } from '../support/server.ts';
import { withServerAndDb } from '../support/server-per-file.ts';
import { type Db, childrenOf, count, rawRow, seedBookmarks } from './collections-tags-fixtures.ts';

let t: TestServer;
let db: Db;
withServerAndDb((started) => ({ t, db } = started));

const Collections = z.array(Collection);

async function create(u: TestUser, body: Record<string, unknown>): Promise<Collection> {
  return dataOf(await u.api('POST', '/collections', { body }), Collection, 201);
}
const list = async (u: TestUser) => dataOf(await u.api('GET', '/collections'), Collections);
const trashed = async (u: TestUser) => dataOf(await u.api('GET', '/collections/trashed'), Collections);
const get = async (u: TestUser, id: string) => dataOf(await u.api('GET', `/collections/${id}`), Collection);
/** The server's time: seeded trash must look recent, or the trash purge takes it at the next clock move. */
const now = () => t.server.deps.clock.now();
const patch = (u: TestUser, id: string, body: unknown) => u.api('PATCH', `/collections/${id}`, { body });
const trash = (u: TestUser, id: string) => u.api('DELETE', `/collections/${id}`);
const restore = (u: TestUser, id: string) => u.api('POST', `/collections/${id}/restore`);

/** Active bookmarks of the user in these collections, straight from the database. */
const activeIn = (u: TestUser, ...ids: string[]) =>
  count(db, 'SELECT COUNT(*) FROM bookmarks WHERE user_id = ? AND deleted_at IS NULL AND collection_id IN (SELECT value FROM json_each(?))', u.userId, JSON.stringify(ids));

/** A chain of collections, each the child of the one before; the first under `parentId`. */
async function chain(u: TestUser, length: number, parentId: string | null = null): Promise<Collection[]> {
  const made: Collection[] = [];
  for (let i = 0; i < length; i++) made.push(await create(u, { name: `level ${i}`, parentId: made.at(-1)?.id ?? parentId }));
  return made;
}

async function chainOfRoots(u: TestUser, names: string[]): Promise<Collection[]> {
  const made: Collection[] = [];
  for (const name of names) made.push(await create(u, { name }));
  return made;
}

describe('creating and reading collections', () => {
  it('creates roots and children with their defaults, depth and order', async () => {
    const u = await t.user();
    const a = await create(u, { name: '  Reading  ', icon: '📚', color: 'blue' });
    expect(a).toMatchObject({
      name: 'Reading',
      icon: '📚',
      color: 'blue',
      parentId: null,
      depth: 0,
      order: 0,
      bookmarkCount: 0,
      notes: '',
      branding: null,
      isShared: false,
      deletedAt: null,
    });
    expect(a.shareSlug).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(new Date(a.createdAt).toISOString()).toBe(a.createdAt);

    const b = await create(u, { name: 'Work' });
    expect(b).toMatchObject({ icon: '', color: '', order: 1, depth: 0 });
    expect(b.shareSlug).not.toBe(a.shareSlug);
    const b1 = await create(u, { name: 'Work child', parentId: b.id });
    const a1 = await create(u, { name: 'Reading child', parentId: a.id });
    const a2 = await create(u, { name: 'Reading child 2', parentId: a.id });
    const a1x = await create(u, { name: 'Reading grandchild', parentId: a1.id });
    expect([b1.depth, b1.order, a1.order, a2.order, a1x.depth]).toEqual([1, 0, 0, 1, 2]);

    expect(await get(u, a1x.id)).toEqual(a1x);
    const all = await list(u);
    expect(all).toHaveLength(6);
    // parents before children: by depth, then parent, then order
    const position = new Map(all.map((c, i) => [c.id, i]));
    for (const c of all) if (c.parentId) expect(position.get(c.parentId)!).toBeLessThan(position.get(c.id)!);
    expect(all.map((c) => c.depth)).toEqual([0, 0, 1, 1, 1, 2]);
    expect(position.get(a1.id)! + 1).toBe(position.get(a2.id));
  });

  it('counts the active bookmarks directly in a collection', async () => {
    const u = await t.user();
    const parent = await create(u, { name: 'Parent' });
    const child = await create(u, { name: 'Child', parentId: parent.id });
    seedBookmarks(db, u.userId, 3, { collectionId: parent.id });
    seedBookmarks(db, u.userId, 2, { collectionId: parent.id, deletedAt: now() });
    seedBookmarks(db, u.userId, 4, { collectionId: child.id });
    expect((await get(u, parent.id)).bookmarkCount).toBe(3);
    expect((await list(u)).map((c) => c.bookmarkCount)).toEqual([3, 4]);
  });

  it('refuses bad input, unknown parents and a level past the maximum depth, creating nothing', async () => {
    const u = await t.user();
    const other = await t.user();
    const foreign = await create(other, { name: 'Not yours' });
    const gone = await create(u, { name: 'Gone' });
    dataOf(await trash(u, gone.id), CollectionTrashResult);

    expect(expectError(await u.api('POST', '/collections', { body: { name: '   ' } }), 400, 'VALIDATION_ERROR')).toContain('name');
    expect(expectError(await u.api('POST', '/collections', { body: {} }), 400, 'VALIDATION_ERROR')).toContain('name');
    expect(expectError(await u.api('POST', '/collections', { body: { name: 'x', icon: 'i'.repeat(65) } }), 400, 'VALIDATION_ERROR')).toContain('icon');
    expectError(await u.api('POST', '/collections', { body: { name: 'x', parentId: 'col_nope' } }), 404, 'NOT_FOUND');
    expectError(await u.api('POST', '/collections', { body: { name: 'x', parentId: foreign.id } }), 404, 'NOT_FOUND');
    expectError(await u.api('POST', '/collections', { body: { name: 'x', parentId: gone.id } }), 404, 'NOT_FOUND');

    const levels = await chain(u, MAX_COLLECTION_DEPTH + 1);
    expect(levels.at(-1)!.depth).toBe(MAX_COLLECTION_DEPTH);
    const message = expectError(await u.api('POST', '/collections', { body: { name: 'too deep', parentId: levels.at(-1)!.id } }), 400, 'VALIDATION_ERROR');
    expect(message).toContain('parentId');
    expect(await list(u)).toHaveLength(MAX_COLLECTION_DEPTH + 1);
    expect(await list(other)).toHaveLength(1);
  });
});

describe('updating collections', () => {
  it('changes name, icon, color and notes, and nothing on a refused body', async () => {
    const u = await t.user();
    const c = await create(u, { name: 'Old', icon: 'x', color: 'red' });
    const updated = dataOf(await patch(u, c.id, { name: ' New ', notes: 'some notes', color: 'green' }), Collection);
    expect(updated).toEqual({ ...c, name: 'New', notes: 'some notes', color: 'green' });
    expect(dataOf(await patch(u, c.id, {}), Collection)).toEqual(updated);

    expect(expectError(await patch(u, c.id, { name: 'Y', shareSlug: 'mine' }), 400, 'VALIDATION_ERROR')).toContain('shareSlug');
    expect(expectError(await patch(u, c.id, { name: '' }), 400, 'VALIDATION_ERROR')).toContain('name');
    expect(expectError(await patch(u, c.id, { order: -1 }), 400, 'VALIDATION_ERROR')).toContain('order');
    expect(await get(u, c.id)).toEqual(updated);
    expectError(await patch(u, 'col_nope', { name: 'Z' }), 404, 'NOT_FOUND');
  });

  it('moves a collection with its subtree, keeping sibling orders dense', async () => {
    const u = await t.user();
    const a = await create(u, { name: 'A' });
    const b = await create(u, { name: 'B' });
    const c = await create(u, { name: 'C' });
    const b1 = await create(u, { name: 'B1', parentId: b.id });

    const moved = dataOf(await patch(u, b.id, { parentId: a.id }), Collection);
    expect(moved).toMatchObject({ parentId: a.id, depth: 1, order: 0 });
    let all = await list(u);
    expect(all.find((x) => x.id === b1.id)).toMatchObject({ depth: 2, parentId: b.id });
    expect(childrenOf(all, null)).toEqual([['A', 0], ['C', 1]]);

    dataOf(await patch(u, c.id, { parentId: a.id, order: 0 }), Collection);
    all = await list(u);
    expect(childrenOf(all, a.id)).toEqual([['C', 0], ['B', 1]]);

    const root = dataOf(await patch(u, b1.id, { parentId: null }), Collection);
    expect(root).toMatchObject({ parentId: null, depth: 0, order: 1 });
  });

  it('reorders among siblings', async () => {
    const u = await t.user();
    const [a, , c, d] = await chainOfRoots(u, ['a', 'b', 'c', 'd']);
    expect(dataOf(await patch(u, d!.id, { order: 0 }), Collection).order).toBe(0);
    expect(childrenOf(await list(u), null)).toEqual([['d', 0], ['a', 1], ['b', 2], ['c', 3]]);
    expect(dataOf(await patch(u, a!.id, { order: 99 }), Collection).order).toBe(3);
    expect(childrenOf(await list(u), null)).toEqual([['d', 0], ['b', 1], ['c', 2], ['a', 3]]);
    dataOf(await patch(u, c!.id, { order: 1, parentId: null }), Collection);
    expect(childrenOf(await list(u), null)).toEqual([['d', 0], ['c', 1], ['b', 2], ['a', 3]]);
  });

  it('refuses moves under itself, a descendant, an unknown or trashed parent, or past the depth limit', async () => {
    const u = await t.user();
    const other = await t.user();
    const foreign = await create(other, { name: 'Not yours' });
    const x = await chain(u, 6); // depths 0..5
    const y = await chain(u, 5); // depths 0..4: a subtree 4 levels high
    const gone = await create(u, { name: 'Gone' });
    dataOf(await trash(u, gone.id), CollectionTrashResult);
    const before = await list(u);

    expect(expectError(await patch(u, x[0]!.id, { parentId: x[0]!.id }), 400, 'VALIDATION_ERROR')).toContain('parentId');
    expect(expectError(await patch(u, x[0]!.id, { parentId: x[3]!.id }), 400, 'VALIDATION_ERROR')).toContain('parentId');
    expectError(await patch(u, x[0]!.id, { parentId: 'col_nope' }), 404, 'NOT_FOUND');
    expectError(await patch(u, x[0]!.id, { parentId: foreign.id }), 404, 'NOT_FOUND');
    expectError(await patch(u, x[0]!.id, { parentId: gone.id, name: 'renamed' }), 404, 'NOT_FOUND');
    // under x[5] (depth 5) y's deepest level would be at depth 10
    expect(expectError(await patch(u, y[0]!.id, { parentId: x[5]!.id, name: 'renamed' }), 400, 'VALIDATION_ERROR')).toContain('deep');
    expect(await list(u)).toEqual(before);

    dataOf(await patch(u, y[0]!.id, { parentId: x[4]!.id }), Collection);
    expect((await get(u, y[4]!.id)).depth).toBe(MAX_COLLECTION_DEPTH);
  });
});

describe('trashing and restoring collections', () => {
  it('trashes a subtree and its active bookmarks in one go, and restores exactly what it trashed', async () => {
    const u = await t.user();
    const sibling = await create(u, { name: 'Sibling before' });
    const root = await create(u, { name: 'Root' });
    await create(u, { name: 'Sibling after' });
    const child = await create(u, { name: 'Child', parentId: root.id });
    const grandchild = await create(u, { name: 'Grandchild', parentId: child.id });
    const rootMarks = seedBookmarks(db, u.userId, 2, { collectionId: root.id });
    const [alreadyTrashed] = seedBookmarks(db, u.userId, 1, { collectionId: root.id, deletedAt: now() });
    const deepMarks = seedBookmarks(db, u.userId, 3, { collectionId: grandchild.id });
    const [elsewhere] = seedBookmarks(db, u.userId, 1, { collectionId: sibling.id });

    const result = dataOf(await trash(u, root.id), CollectionTrashResult);
    expect(result).toEqual({ id: root.id, collections: 3, bookmarks: 5 });
    expect((await list(u)).map((c) => [c.name, c.order])).toEqual([['Sibling before', 0], ['Sibling after', 1]]);
    const inTrash = await trashed(u);
    expect(inTrash.map((c) => c.id).sort()).toEqual([root.id, child.id, grandchild.id].sort());
    expect(inTrash.every((c) => c.deletedAt !== null)).toBe(true);
    expect((await get(u, grandchild.id)).depth).toBe(2);
    for (const id of [...rootMarks, ...deepMarks]) expect(rawRow(db, 'bookmarks', id)).toMatchObject({ trash_root: root.id });
    expect(rawRow(db, 'bookmarks', alreadyTrashed!)).toMatchObject({ trash_root: null });
    expect(rawRow(db, 'bookmarks', elsewhere!)).toMatchObject({ deleted_at: null });

    expect(expectError(await trash(u, root.id), 409, 'CONFLICT')).toContain('trash');
    expect(expectError(await trash(u, child.id), 409, 'CONFLICT')).toContain('trash');
    expectError(await patch(u, child.id, { name: 'x' }), 409, 'CONFLICT');
    expectError(await u.api('PUT', `/collections/${root.id}/share`, { body: { shared: true } }), 409, 'CONFLICT');

    const restored = dataOf(await restore(u, root.id), CollectionTrashResult);
    expect(restored).toEqual({ id: root.id, collections: 3, bookmarks: 5 });
    expect(await trashed(u)).toEqual([]);
    expect(await get(u, root.id)).toMatchObject({ parentId: null, order: 2, deletedAt: null, bookmarkCount: 2 });
    expect(await get(u, grandchild.id)).toMatchObject({ parentId: child.id, depth: 2, bookmarkCount: 3 });
    expect(rawRow(db, 'bookmarks', alreadyTrashed!)!.deleted_at).not.toBeNull();
    expect(rawRow(db, 'bookmarks', deepMarks[0]!)).toMatchObject({ deleted_at: null, trash_root: null });

    expect(expectError(await restore(u, root.id), 409, 'CONFLICT')).toContain('not in the trash');
    expectError(await restore(u, 'col_nope'), 404, 'NOT_FOUND');
    expectError(await trash(u, 'col_nope'), 404, 'NOT_FOUND');
  });

  it('leaves a child trashed on its own before its parent in the trash when the parent comes back', async () => {
    const u = await t.user();
    const parent = await create(u, { name: 'Parent' });
    const child = await create(u, { name: 'Child', parentId: parent.id });
    const [childMark] = seedBookmarks(db, u.userId, 1, { collectionId: child.id });
    expect(dataOf(await trash(u, child.id), CollectionTrashResult)).toEqual({ id: child.id, collections: 1, bookmarks: 1 });
    expect(dataOf(await trash(u, parent.id), CollectionTrashResult)).toEqual({ id: parent.id, collections: 1, bookmarks: 0 });

    expect(dataOf(await restore(u, parent.id), CollectionTrashResult)).toEqual({ id: parent.id, collections: 1, bookmarks: 0 });
    expect((await trashed(u)).map((c) => c.id)).toEqual([child.id]);
    expect(rawRow(db, 'bookmarks', childMark!)).toMatchObject({ trash_root: child.id });

    // Its parent is active again, so the child returns under it.
    dataOf(await restore(u, child.id), CollectionTrashResult);
    expect(await get(u, child.id)).toMatchObject({ parentId: parent.id, depth: 1 });
    expect(activeIn(u, child.id)).toBe(1);
  });

  it('restores a collection whose parent is still trashed as a root, with its own part of the cascade', async () => {
    const u = await t.user();
    const parent = await create(u, { name: 'Parent' });
    const child = await create(u, { name: 'Child', parentId: parent.id });
    const grandchild = await create(u, { name: 'Grandchild', parentId: child.id });
    seedBookmarks(db, u.userId, 2, { collectionId: parent.id });
    seedBookmarks(db, u.userId, 3, { collectionId: grandchild.id });
    dataOf(await trash(u, parent.id), CollectionTrashResult);

    expect(dataOf(await restore(u, child.id), CollectionTrashResult)).toEqual({ id: child.id, collections: 2, bookmarks: 3 });
    expect(await get(u, child.id)).toMatchObject({ parentId: null, depth: 0, deletedAt: null });
    expect(await get(u, grandchild.id)).toMatchObject({ parentId: child.id, depth: 1, bookmarkCount: 3 });
    expect((await trashed(u)).map((c) => c.id)).toEqual([parent.id]);

    expect(dataOf(await restore(u, parent.id), CollectionTrashResult)).toEqual({ id: parent.id, collections: 1, bookmarks: 2 });
    expect(await get(u, child.id)).toMatchObject({ parentId: null });
  });

  it('restores as a root when the parent is gone or has since moved too deep to hold the subtree', async () => {
    const u = await t.user();
    const gonePa = await create(u, { name: 'Soon gone' });
    const orphan = await create(u, { name: 'Orphan', parentId: gonePa.id });
    dataOf(await trash(u, orphan.id), CollectionTrashResult);
    db.prepare('DELETE FROM collections WHERE id = ?').run(gonePa.id);
    dataOf(await restore(u, orphan.id), CollectionTrashResult);
    expect(await get(u, orphan.id)).toMatchObject({ parentId: null, depth: 0 });

    const levels = await chain(u, MAX_COLLECTION_DEPTH); // depths 0..8
    const leaf = await create(u, { name: 'Leaf', parentId: levels.at(-1)!.id });
    expect(leaf.depth).toBe(MAX_COLLECTION_DEPTH);
    dataOf(await trash(u, leaf.id), CollectionTrashResult);
    const top = await create(u, { name: 'New top' });
    dataOf(await patch(u, levels[0]!.id, { parentId: top.id }), Collection);
    dataOf(await restore(u, leaf.id), CollectionTrashResult);
    expect(await get(u, leaf.id)).toMatchObject({ parentId: null, depth: 0 });
  });

  it('lists trashed collections most recently trashed first', async () => {
    const u = await t.user();
    const first = await create(u, { name: 'First' });
    const second = await create(u, { name: 'Second' });
    dataOf(await trash(u, second.id), CollectionTrashResult);
    await t.advance(1000);
    dataOf(await trash(u, first.id), CollectionTrashResult);
    expect((await trashed(u)).map((c) => c.name)).toEqual(['First', 'Second']);
  });

  it('deletes at exactly 1,000 rows and refuses 1,001, changing nothing', async () => {
    const u = await t.user();
    // 2 collections + 500 active + 100 trashed + 398 active bookmarks = 1,000 rows
    const ok = await create(u, { name: 'Just fits' });
    const okChild = await create(u, { name: 'Child', parentId: ok.id });
    seedBookmarks(db, u.userId, 500, { collectionId: ok.id });
    seedBookmarks(db, u.userId, 100, { collectionId: ok.id, deletedAt: now() });
    seedBookmarks(db, u.userId, 398, { collectionId: okChild.id });
    expect(dataOf(await trash(u, ok.id), CollectionTrashResult)).toEqual({ id: ok.id, collections: 2, bookmarks: 898 });

    const big = await create(u, { name: 'One too many' });
    const bigChild = await create(u, { name: 'Child', parentId: big.id });
    seedBookmarks(db, u.userId, 500, { collectionId: big.id });
    seedBookmarks(db, u.userId, 101, { collectionId: big.id, deletedAt: now() });
    seedBookmarks(db, u.userId, 398, { collectionId: bigChild.id });
    const before = await list(u);
    const message = expectError(await trash(u, big.id), 422, 'COLLECTION_TOO_LARGE');
    expect(message).toContain('1001');
    expect(message).toContain(String(COLLECTION_ROW_LIMIT));
    expect(message).toMatch(/trash its child collections first/i);
    expect(await list(u)).toEqual(before);
    expect(activeIn(u, big.id, bigChild.id)).toBe(898);
    expect(count(db, 'SELECT COUNT(*) FROM bookmarks WHERE trash_root = ?', big.id)).toBe(0);
  });

  it('restores at exactly 1,000 rows and refuses 1,001, until a bookmark is restored on its own', async () => {
    const u = await t.user();
    const c = await create(u, { name: 'Big' });
    seedBookmarks(db, u.userId, 999, { collectionId: c.id });
    expect(dataOf(await trash(u, c.id), CollectionTrashResult)).toEqual({ id: c.id, collections: 1, bookmarks: 999 });
    // One more bookmark of the same cascade (as from a time with other limits): 1,001 rows.
    const [extra] = seedBookmarks(db, u.userId, 1, { collectionId: c.id, deletedAt: now(), trashRoot: c.id });

    const message = expectError(await restore(u, c.id), 422, 'COLLECTION_TOO_LARGE');
    expect(message).toContain('1001');
    expect(message).toMatch(/restore some of its bookmarks first/i);
    expect((await trashed(u)).map((x) => x.id)).toEqual([c.id]);
    expect(activeIn(u, c.id)).toBe(0);

    // Restored on its own, a bookmark of a trashed collection returns unsorted and stops counting.
    const back = dataOf(await u.api('POST', `/bookmarks/${extra}/restore`), Bookmark);
    expect(back).toMatchObject({ collectionId: null, deletedAt: null });
    expect(dataOf(await restore(u, c.id), CollectionTrashResult)).toEqual({ id: c.id, collections: 1, bookmarks: 999 });
    expect((await get(u, c.id)).bookmarkCount).toBe(999);
  });

  it('purges collections trashed more than 30 days ago with their trashed bookmarks', async () => {
    const u = await t.user();
    const old = await create(u, { name: 'Old' });
    const [oldMark] = seedBookmarks(db, u.userId, 1, { collectionId: old.id });
    dataOf(await trash(u, old.id), CollectionTrashResult);
    await t.advance(20 * DAY);
    const recent = await create(u, { name: 'Recent' });
    dataOf(await trash(u, recent.id), CollectionTrashResult);

    await t.advance(9 * DAY);
    expect((await trashed(u)).map((c) => c.name)).toEqual(['Recent', 'Old']);
    await t.advance(2 * DAY);
    expect((await trashed(u)).map((c) => c.name)).toEqual(['Recent']);
    expect(rawRow(db, 'collections', old.id)).toBeUndefined();
    expect(rawRow(db, 'bookmarks', oldMark!)).toBeUndefined();
    expectError(await restore(u, old.id), 404, 'NOT_FOUND');
  });
});

describe('bookmarks of a collection', () => {
  it('pages newest first, each active bookmark exactly once, across equal times', async () => {
    const u = await t.user();
    const c = await create(u, { name: 'Paged' });
    const other = await create(u, { name: 'Other' });
    const same = 1_750_000_000_000;
    const ids = seedBookmarks(db, u.userId, 7, { collectionId: c.id, createdAt: (i) => (i < 4 ? same : same + i) });
    seedBookmarks(db, u.userId, 1, { collectionId: c.id, deletedAt: now() });
    seedBookmarks(db, u.userId, 1, { collectionId: other.id });
    // newest first; among equal times the later insert first
    const expected = [ids[6], ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]];

    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `/collections/${c.id}/bookmarks?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = dataOf(await u.api('GET', path), CollectionBookmarksPage);
      seen.push(...page.bookmarks.map((b) => b.id));
      sizes.push(page.bookmarks.length);
      cursor = page.continueCursor;
    } while (cursor !== null);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(expected);
  });

  it('takes 50 by default and at most 100', async () => {
    const u = await t.user();
    const c = await create(u, { name: 'Many' });
    seedBookmarks(db, u.userId, 120, { collectionId: c.id });
    const first = dataOf(await u.api('GET', `/collections/${c.id}/bookmarks`), CollectionBookmarksPage);
    expect(first.bookmarks).toHaveLength(50);
    expect(first.continueCursor).not.toBeNull();
    const capped = dataOf(await u.api('GET', `/collections/${c.id}/bookmarks?limit=500`), CollectionBookmarksPage);
    expect(capped.bookmarks).toHaveLength(100);
    const rest = dataOf(await u.api('GET', `/collections/${c.id}/bookmarks?limit=100&cursor=${capped.continueCursor}`), CollectionBookmarksPage);
    expect(rest.bookmarks).toHaveLength(20);
    expect(rest.continueCursor).toBeNull();
  });

  it('refuses a malformed cursor or limit and unknown collections', async () => {
    const u = await t.user();
    const c = await create(u, { name: 'C' });
    for (const cursor of ['nonsense', 'W10', Buffer.from('["a",1]').toString('base64url')]) {
      expect(expectError(await u.api('GET', `/collections/${c.id}/bookmarks?cursor=${cursor}`), 400, 'VALIDATION_ERROR')).toContain('cursor');
    }
    expect(expectError(await u.api('GET', `/collections/${c.id}/bookmarks?limit=0`), 400, 'VALIDATION_ERROR')).toContain('limit');
    expectError(await u.api('GET', '/collections/col_nope/bookmarks'), 404, 'NOT_FOUND');
  });
});

describe('sharing', () => {
  const page = (slug: string) => fetch(`${t.server.origin}/shared/${slug}`);

  it('turns sharing on and off and serves an escaped public page while shared', async () => {
    const u = await t.user();
    const c = await create(u, { name: 'Links <b>&</b> more' });
    const child = await create(u, { name: 'Child', parentId: c.id });
    seedBookmarks(db, u.userId, 1, { collectionId: c.id, title: '<script>alert(1)</script>', description: 'Says "hi" & <img src=x onerror=alert(2)>' });
    seedBookmarks(db, u.userId, 1, { collectionId: c.id, title: 'Trashed one', deletedAt: now() });
    seedBookmarks(db, u.userId, 1, { collectionId: child.id, title: 'In the child' });
    seedBookmarks(db, u.userId, 1, { collectionId: c.id, title: 'Plain title' });

    const off = dataOf(await u.api('GET', `/collections/${c.id}/share`), ShareState);
    expect(off).toEqual({ shared: false, publicUrl: `/shared/${c.shareSlug}` });
    expect((await page(c.shareSlug!)).status).toBe(404);

    expect(dataOf(await u.api('PUT', `/collections/${c.id}/share`, { body: { shared: true } }), ShareState)).toEqual({ ...off, shared: true });
    expect((await get(u, c.id)).isShared).toBe(true);
    const res = await fetch(`${t.server.origin}${off.publicUrl}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1>Links &lt;b&gt;&amp;&lt;/b&gt; more</h1>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Says &quot;hi&quot; &amp; &lt;img src=x onerror=alert(2)&gt;');
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toMatch(/<a href="https:\/\/seed\.example\/\d+" rel="noopener noreferrer nofollow">Plain title<\/a>/);
    expect(html).not.toContain('Trashed one');
    expect(html).not.toContain('In the child');
    expect(html.indexOf('Plain title')).toBeLessThan(html.indexOf('alert(1)'));
    const head = await fetch(`${t.server.origin}${off.publicUrl}`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);

    expect(dataOf(await u.api('PUT', `/collections/${c.id}/share`, { body: { shared: false } }), ShareState).shared).toBe(false);
    expect((await page(c.shareSlug!)).status).toBe(404);
  });

  it('hides a trashed shared collection and answers unknown slugs with an HTML 404', async () => {
    const u = await t.user();
    const c = await create(u, { name: 'Shared then trashed' });
    dataOf(await u.api('PUT', `/collections/${c.id}/share`, { body: { shared: true } }), ShareState);
    expect((await page(c.shareSlug!)).status).toBe(200);
    dataOf(await trash(u, c.id), CollectionTrashResult);
    const gone = await page(c.shareSlug!);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await gone.text()).toContain('no longer shared');
    expect(dataOf(await u.api('GET', `/collections/${c.id}/share`), ShareState).shared).toBe(true);

    const unknown = await page('no-such-slug');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('validates the share body', async () => {
    const u = await t.user();
    const c = await create(u, { name: 'C' });
    expect(expectError(await u.api('PUT', `/collections/${c.id}/share`, { body: { shared: 'yes' } }), 400, 'VALIDATION_ERROR')).toContain('shared');
    expect(dataOf(await u.api('GET', `/collections/${c.id}/share`), ShareState).shared).toBe(false);
  });
});

describe("another user's collections", () => {
  it('answer 404 on every route and stay unchanged', async () => {
    const owner = await t.user();
    const intruder = await t.user();
    const c = await create(owner, { name: 'Private' });
    const gone = await create(owner, { name: 'Trashed' });
    dataOf(await trash(owner, gone.id), CollectionTrashResult);

    const attempts: [string, string, unknown?][] = [
      ['GET', `/collections/${c.id}`],
      ['PATCH', `/collections/${c.id}`, { name: 'Mine now' }],
      ['DELETE', `/collections/${c.id}`],
      ['POST', `/collections/${gone.id}/restore`],
      ['GET', `/collections/${c.id}/bookmarks`],
      ['GET', `/collections/${c.id}/share`],
      ['PUT', `/collections/${c.id}/share`, { shared: true }],
      ['POST', '/collections', { name: 'Child', parentId: c.id }],
    ];
    for (const [method, path, body] of attempts) {
      expectError(await intruder.api(method, path, body === undefined ? {} : { body }), 404, 'NOT_FOUND');
    }
    expect(await list(intruder)).toEqual([]);
    expect(await trashed(intruder)).toEqual([]);
    expect(await get(owner, c.id)).toEqual(c);
    expect((await trashed(owner)).map((x) => x.id)).toEqual([gone.id]);
  });
});
