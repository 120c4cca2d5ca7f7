import { beforeEach, describe, expect, it } from 'vitest';
import { COLLECTION_ROW_LIMIT, type Collection, MAX_COLLECTION_DEPTH } from '../../../lib/api/collections.ts';
import type { Pg } from '../../../server/db/postgres/pg.ts';
import { PgCollections } from '../../../server/store/postgres/collections.ts';
import { childrenOf } from '../collections-tags-fixtures.ts';
import { addUser, count, freshDb, rawRow, rejection, seedBookmarks, withCluster } from './library-fixtures.ts';

withCluster();

const NOW = 1_750_000_000_000;
let db: Pg;
let store: PgCollections;
let user: string;

beforeEach(async () => {
  db = await freshDb();
  store = new PgCollections(db);
  user = await addUser(db);
});

const create = (name: string, parentId: string | null = null, userId = user) => store.create(userId, { name, parentId }, NOW);

/** A chain of collections, each the child of the one before; the first under `parentId`. */
async function chain(length: number, parentId: string | null = null): Promise<Collection[]> {
  const made: Collection[] = [];
  for (let i = 0; i < length; i++) made.push(await create(`level ${i}`, made.at(-1)?.id ?? parentId));
  return made;
}

const activeIn = (...ids: string[]) =>
  count(db, 'SELECT COUNT(*) FROM bookmarks WHERE user_id = $1 AND deleted_at IS NULL AND collection_id = ANY($2)', [user, ids]);

describe('creating and reading collections', () => {
  it('creates roots and children with their defaults, depth and order, and lists parents before children', async () => {
    const work = await store.create(user, { name: 'Work', icon: '💼', color: '#ff0000' }, NOW);
    expect(work).toMatchObject({
      name: 'Work', icon: '💼', color: '#ff0000', parentId: null, depth: 0, order: 0, bookmarkCount: 0, notes: '',
      branding: null, isShared: false, createdAt: new Date(NOW).toISOString(), deletedAt: null,
    });
    expect(work.shareSlug).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const home = await create('Home');
    const projects = await create('Projects', work.id);
    const old = await create('Old', projects.id);
    const notes = await create('Notes', work.id);
    expect([home.order, projects.order, notes.order, old.depth]).toEqual([1, 0, 1, 2]);

    const all = await store.list(user);
    expect(all.map((c) => c.name)).toEqual(['Work', 'Home', 'Projects', 'Notes', 'Old']);
    expect(await store.get(user, old.id)).toEqual(old);
    expect(all.find((c) => c.id === old.id)).toEqual(old);
  });

  it('counts the active bookmarks directly in a collection', async () => {
    const [parent, child] = await chain(2);
    await seedBookmarks(db, user, 3, { collectionId: parent!.id });
    await seedBookmarks(db, user, 2, { collectionId: parent!.id, deletedAt: NOW });
    await seedBookmarks(db, user, 4, { collectionId: child!.id });
    expect((await store.get(user, parent!.id)).bookmarkCount).toBe(3);
    expect((await store.list(user)).map((c) => c.bookmarkCount)).toEqual([3, 4]);
  });

  it('refuses unknown, trashed and other users\' parents and a level past the maximum depth, creating nothing', async () => {
    const other = await addUser(db);
    const theirs = await create('Theirs', null, other);
    const trashed = await create('Trashed');
    await store.trash(user, trashed.id, NOW);
    expect(await rejection(create('x', 'col_nope'), 'NOT_FOUND')).toBe('parent collection col_nope not found');
    await rejection(create('x', trashed.id), 'NOT_FOUND');
    await rejection(create('x', theirs.id), 'NOT_FOUND');

    const levels = await chain(MAX_COLLECTION_DEPTH + 1);
    expect(levels.at(-1)!.depth).toBe(MAX_COLLECTION_DEPTH);
    expect(await rejection(create('too deep', levels.at(-1)!.id), 'VALIDATION_ERROR')).toBe(
      'Invalid body: parentId: collections nest at most 10 levels deep (depth 0 to 9)',
    );
    expect(await count(db, 'SELECT COUNT(*) FROM collections WHERE user_id = $1', [user])).toBe(MAX_COLLECTION_DEPTH + 2);
  });

  it("answers NOT_FOUND for unknown ids and other users' collections", async () => {
    const other = await addUser(db);
    const theirs = await create('Theirs', null, other);
    await rejection(store.get(user, 'col_nope'), 'NOT_FOUND');
    await rejection(store.get(user, theirs.id), 'NOT_FOUND');
    await rejection(store.update(user, theirs.id, { name: 'mine' }, NOW), 'NOT_FOUND');
    await rejection(store.trash(user, theirs.id, NOW), 'NOT_FOUND');
    await rejection(store.restore(user, theirs.id, NOW), 'NOT_FOUND');
    await rejection(store.bookmarks(user, theirs.id, { limit: 10 }), 'NOT_FOUND');
    await rejection(store.share(user, theirs.id), 'NOT_FOUND');
    await rejection(store.setShared(user, theirs.id, true, NOW), 'NOT_FOUND');
    expect(await store.get(other, theirs.id)).toEqual(theirs);
    expect(await store.list(user)).toEqual([]);
  });
});

describe('updating collections', () => {
  it('changes name, icon, color and notes, leaving what the patch does not name', async () => {
    const c = await store.create(user, { name: 'A', icon: 'i', color: '#000000' }, NOW);
    const changed = await store.update(user, c.id, { name: 'B', notes: 'some notes' }, NOW + 1);
    expect(changed).toEqual({ ...c, name: 'B', notes: 'some notes' });
    expect((await rawRow(db, 'collections', c.id))!.updated_at).toBe(NOW + 1);
    expect(await store.update(user, c.id, { icon: '', color: '#00ff00' }, NOW + 2)).toEqual({ ...changed, icon: '', color: '#00ff00' });
  });

  it('moves a collection with its subtree, keeping sibling orders dense, at the index asked for', async () => {
    const [a, b, c] = [await create('a'), await create('b'), await create('c')];
    const [x, y] = [await create('x', a!.id), await create('y', a!.id)];
    const deep = await create('deep', x!.id);

    await store.update(user, x!.id, { parentId: c!.id }, NOW);
    let all = await store.list(user);
    expect(childrenOf(all, a!.id)).toEqual([['y', 0]]);
    expect(childrenOf(all, c!.id)).toEqual([['x', 0]]);
    expect(all.find((k) => k.id === deep.id)!.depth).toBe(2);

    await store.update(user, y!.id, { parentId: null, order: 1 }, NOW);
    all = await store.list(user);
    expect(childrenOf(all, null)).toEqual([['a', 0], ['y', 1], ['b', 2], ['c', 3]]);
    expect(childrenOf(all, a!.id)).toEqual([]);

    // A move alone appends.
    await store.update(user, b!.id, { parentId: c!.id }, NOW);
    all = await store.list(user);
    expect(childrenOf(all, null)).toEqual([['a', 0], ['y', 1], ['c', 2]]);
    expect(childrenOf(all, c!.id)).toEqual([['x', 0], ['b', 1]]);
  });

  it('reorders among siblings, an index past the end meaning last', async () => {
    const [a, , c] = [await create('a'), await create('b'), await create('c')];
    await store.update(user, c!.id, { order: 0 }, NOW);
    expect(childrenOf(await store.list(user), null)).toEqual([['c', 0], ['a', 1], ['b', 2]]);
    await store.update(user, a!.id, { order: 99 }, NOW);
    expect(childrenOf(await store.list(user), null)).toEqual([['c', 0], ['b', 1], ['a', 2]]);
  });

  it('refuses moves under itself, a descendant, an unknown or trashed parent, or past the depth limit, changing nothing', async () => {
    const [top, mid, leaf] = await chain(3);
    const trashed = await create('trashed');
    await store.trash(user, trashed.id, NOW);
    const before = await store.list(user);

    const cycle = 'Invalid body: parentId: a collection cannot move under itself or one of its descendants';
    expect(await rejection(store.update(user, top!.id, { parentId: top!.id }, NOW), 'VALIDATION_ERROR')).toBe(cycle);
    expect(await rejection(store.update(user, top!.id, { parentId: leaf!.id, name: 'renamed' }, NOW), 'VALIDATION_ERROR')).toBe(cycle);
    await rejection(store.update(user, mid!.id, { parentId: 'col_nope' }, NOW), 'NOT_FOUND');
    await rejection(store.update(user, mid!.id, { parentId: trashed.id }, NOW), 'NOT_FOUND');

    const deep = await chain(MAX_COLLECTION_DEPTH - 1);
    // top's subtree is 3 levels: under the chain's last (depth MAX-2) it would reach MAX+1.
    await rejection(store.update(user, top!.id, { parentId: deep.at(-1)!.id }, NOW), 'VALIDATION_ERROR');
    await store.update(user, mid!.id, { parentId: deep.at(-1)!.id }, NOW);
    expect((await store.get(user, leaf!.id)).depth).toBe(MAX_COLLECTION_DEPTH);
    await store.update(user, mid!.id, { parentId: top!.id }, NOW);
    expect((await store.list(user)).filter((c) => before.some((b) => b.id === c.id))).toEqual(before);

    expect(await rejection(store.update(user, trashed.id, { name: 'x' }, NOW), 'CONFLICT')).toBe(
      `collection ${trashed.id} is in the trash; restore it first`,
    );
  });

  it('makes no cycle when two moves that would close one run at once', async () => {
    const [a, b] = [await create('a'), await create('b')];
    const results = await Promise.allSettled([
      store.update(user, a!.id, { parentId: b!.id }, NOW),
      store.update(user, b!.id, { parentId: a!.id }, NOW),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const all = await store.list(user);
    expect(all.filter((c) => c.parentId === null)).toHaveLength(1);
    expect(all.map((c) => c.depth).sort()).toEqual([0, 1]);
  });
});

describe('trashing and restoring collections', () => {
  it('trashes a subtree and its active bookmarks in one go, and restores exactly what it trashed', async () => {
    const [first, top, second] = [await create('first'), await create('top'), await create('second')];
    const [child, grandchild] = await chain(2, top!.id);
    const inTop = await seedBookmarks(db, user, 2, { collectionId: top!.id });
    const inGrandchild = await seedBookmarks(db, user, 3, { collectionId: grandchild!.id });
    const trashedAlone = await seedBookmarks(db, user, 1, { collectionId: child!.id, deletedAt: NOW - 5 });

    expect(await store.trash(user, top!.id, NOW)).toEqual({ id: top!.id, collections: 3, bookmarks: 5 });
    expect(await store.list(user)).toEqual([
      { ...first, order: 0 },
      { ...second, order: 1 },
    ]);
    expect(await activeIn(top!.id, child!.id, grandchild!.id)).toBe(0);
    expect(await rawRow(db, 'bookmarks', inTop[0]!)).toMatchObject({ deleted_at: NOW, trash_root: top!.id, updated_at: NOW });
    expect(await rawRow(db, 'bookmarks', trashedAlone[0]!)).toMatchObject({ deleted_at: NOW - 5, trash_root: null });
    expect((await store.get(user, grandchild!.id)).deletedAt).toBe(new Date(NOW).toISOString());
    expect(await rejection(store.trash(user, child!.id, NOW), 'CONFLICT')).toBe(`collection ${child!.id} is already in the trash`);

    expect(await store.restore(user, top!.id, NOW + 1)).toEqual({ id: top!.id, collections: 3, bookmarks: 5 });
    const all = await store.list(user);
    expect(childrenOf(all, null)).toEqual([['first', 0], ['second', 1], ['top', 2]]);
    expect(all.find((c) => c.id === grandchild!.id)).toMatchObject({ depth: 2, bookmarkCount: 3, deletedAt: null });
    expect(await activeIn(top!.id, grandchild!.id)).toBe(inTop.length + inGrandchild.length);
    expect(await rawRow(db, 'bookmarks', trashedAlone[0]!)).toMatchObject({ deleted_at: NOW - 5 });
    expect(await rejection(store.restore(user, top!.id, NOW), 'CONFLICT')).toBe(`collection ${top!.id} is not in the trash`);
  });

  it('leaves a child trashed on its own before its parent in the trash when the parent comes back', async () => {
    const [parent, child] = await chain(2);
    await seedBookmarks(db, user, 2, { collectionId: child!.id });
    expect(await store.trash(user, child!.id, NOW)).toEqual({ id: child!.id, collections: 1, bookmarks: 2 });
    expect(await store.trash(user, parent!.id, NOW + 1)).toEqual({ id: parent!.id, collections: 1, bookmarks: 0 });
    expect(await store.restore(user, parent!.id, NOW + 2)).toEqual({ id: parent!.id, collections: 1, bookmarks: 0 });
    expect((await store.get(user, child!.id)).deletedAt).not.toBeNull();
    expect(await store.restore(user, child!.id, NOW + 3)).toEqual({ id: child!.id, collections: 1, bookmarks: 2 });
    expect((await store.get(user, child!.id)).parentId).toBe(parent!.id);
  });

  it('restores a collection whose parent is still trashed as a root, with its own part of the cascade', async () => {
    const [top, mid, leaf] = await chain(3);
    await seedBookmarks(db, user, 1, { collectionId: top!.id });
    await seedBookmarks(db, user, 2, { collectionId: leaf!.id });
    await store.trash(user, top!.id, NOW);
    expect(await store.restore(user, mid!.id, NOW + 1)).toEqual({ id: mid!.id, collections: 2, bookmarks: 2 });
    expect(await store.get(user, mid!.id)).toMatchObject({ parentId: null, depth: 0 });
    expect(await store.get(user, leaf!.id)).toMatchObject({ parentId: mid!.id, depth: 1 });
    expect(await store.restore(user, top!.id, NOW + 2)).toEqual({ id: top!.id, collections: 1, bookmarks: 1 });
    expect(childrenOf(await store.list(user), null)).toEqual([['level 1', 0], ['level 0', 1]]);
  });

  it('restores as a root when the parent has since moved too deep to hold the subtree', async () => {
    const [holder, sub] = await chain(2);
    await chain(2, sub!.id);
    await store.trash(user, sub!.id, NOW);
    const deep = await chain(MAX_COLLECTION_DEPTH - 1);
    await store.update(user, holder!.id, { parentId: deep.at(-1)!.id }, NOW);
    await store.restore(user, sub!.id, NOW + 1);
    expect(await store.get(user, sub!.id)).toMatchObject({ parentId: null, depth: 0 });
  });

  it('lists trashed collections most recently trashed first', async () => {
    const [a, b, c] = [await create('a'), await create('b'), await create('c')];
    await store.trash(user, b!.id, NOW + 1);
    await store.trash(user, a!.id, NOW + 2);
    await store.trash(user, c!.id, NOW + 1);
    expect((await store.listTrashed(user)).map((x) => x.name)).toEqual(['a', 'c', 'b']);
    expect((await store.listTrashed(user))[0]).toMatchObject({ deletedAt: new Date(NOW + 2).toISOString(), depth: 0 });
  });

  it(`deletes at exactly ${COLLECTION_ROW_LIMIT} rows and refuses one more, changing nothing`, async () => {
    const [top, child] = await chain(2);
    await seedBookmarks(db, user, COLLECTION_ROW_LIMIT - 3, { collectionId: top!.id });
    await seedBookmarks(db, user, 1, { collectionId: child!.id, deletedAt: NOW - 1 }); // trashed ones count too
    const extra = await seedBookmarks(db, user, 1, { collectionId: child!.id });
    const message = await rejection(store.trash(user, top!.id, NOW), 'COLLECTION_TOO_LARGE');
    expect(message).toContain(`would touch ${COLLECTION_ROW_LIMIT + 1} rows`);
    expect(message).toContain('Nothing was changed');
    expect((await store.get(user, top!.id)).deletedAt).toBeNull();
    expect(await activeIn(top!.id, child!.id)).toBe(COLLECTION_ROW_LIMIT - 2);

    await db.run('UPDATE bookmarks SET collection_id = NULL WHERE id = $1', [extra[0]]);
    expect(await store.trash(user, top!.id, NOW)).toEqual({ id: top!.id, collections: 2, bookmarks: COLLECTION_ROW_LIMIT - 3 });
  });

  it(`restores at exactly ${COLLECTION_ROW_LIMIT} rows and refuses one more, until a bookmark leaves`, async () => {
    const top = await create('top');
    await store.trash(user, top.id, NOW);
    // Rows written some other way: more trashed bookmarks than a delete would have allowed.
    const many = await seedBookmarks(db, user, COLLECTION_ROW_LIMIT, { collectionId: top.id, deletedAt: NOW, trashRoot: top.id });
    expect(await rejection(store.restore(user, top.id, NOW + 1), 'COLLECTION_TOO_LARGE')).toContain(
      `Restoring this collection would touch ${COLLECTION_ROW_LIMIT + 1} rows`,
    );
    expect((await store.get(user, top.id)).deletedAt).not.toBeNull();
    await db.run('UPDATE bookmarks SET collection_id = NULL, deleted_at = NULL, trash_root = NULL WHERE id = $1', [many[0]]);
    expect(await store.restore(user, top.id, NOW + 1)).toEqual({ id: top.id, collections: 1, bookmarks: COLLECTION_ROW_LIMIT - 1 });
    expect((await store.get(user, top.id)).bookmarkCount).toBe(COLLECTION_ROW_LIMIT - 1);
  });

  it('purges the collections trashed before the cutoff with their trashed bookmarks, user by user', async () => {
    const other = await addUser(db);
    const [old, recent, active] = [await create('old'), await create('recent'), await create('active')];
    const theirs = await create('theirs', null, other);
    const oldChild = await create('old child', old!.id);
    await seedBookmarks(db, user, 3, { collectionId: oldChild.id });
    await seedBookmarks(db, other, 2, { collectionId: theirs.id });
    await seedBookmarks(db, user, 1, { collectionId: recent!.id });
    const kept = await seedBookmarks(db, user, 1, { collectionId: active!.id, deletedAt: NOW - 100 });
    await store.trash(user, old!.id, NOW - 100);
    await store.trash(other, theirs.id, NOW - 100);
    await store.trash(user, recent!.id, NOW);

    expect(await store.purgeTrashedBefore(NOW - 50)).toEqual({ collections: 3, bookmarks: 5 });
    await rejection(store.get(user, oldChild.id), 'NOT_FOUND');
    await rejection(store.get(other, theirs.id), 'NOT_FOUND');
    expect((await store.listTrashed(user)).map((c) => c.name)).toEqual(['recent']);
    expect(await rawRow(db, 'bookmarks', kept[0]!)).toBeDefined();
    expect(await count(db, 'SELECT COUNT(*) FROM bookmarks')).toBe(2);
    expect(await store.purgeTrashedBefore(NOW - 50)).toEqual({ collections: 0, bookmarks: 0 });
  });
});

describe('bookmarks of a collection', () => {
  it('pages newest first, each active bookmark exactly once, across equal times', async () => {
    const c = await create('c');
    const ids = await seedBookmarks(db, user, 7, { collectionId: c.id, createdAt: (i) => NOW - Math.floor(i / 3) });
    await seedBookmarks(db, user, 2, { collectionId: c.id, deletedAt: NOW });
    await seedBookmarks(db, user, 2);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await store.bookmarks(user, c.id, { limit: 3, cursor });
      seen.push(...page.bookmarks.map((b) => b.id));
      cursor = page.continueCursor ?? undefined;
      pages++;
    } while (cursor !== undefined);
    // Newest first; among equal times, the later written first.
    expect(seen).toEqual([ids[2], ids[1], ids[0], ids[5], ids[4], ids[3], ids[6]]);
    expect(pages).toBe(3);
    const first = await store.bookmarks(user, c.id, { limit: 7 });
    expect(first.continueCursor).toBeNull();
    expect(first.bookmarks[0]).toMatchObject({ collectionId: c.id, tags: [], deletedAt: null, domain: 'seed.example' });
  });

  it('refuses a malformed cursor and reads nothing of unknown collections', async () => {
    const c = await create('c');
    expect(await rejection(store.bookmarks(user, c.id, { limit: 3, cursor: 'bm9wZQ' }), 'VALIDATION_ERROR')).toBe(
      'Invalid query: cursor: is not a cursor from a previous page; start again without it',
    );
    await rejection(store.bookmarks(user, 'col_nope', { limit: 3 }), 'NOT_FOUND');
    expect(await store.bookmarks(user, c.id, { limit: 3 })).toEqual({ bookmarks: [], continueCursor: null });
  });
});

describe('sharing', () => {
  it('turns sharing on and off; the slug finds the collection only while shared and active', async () => {
    const c = await create('c');
    const slug = c.shareSlug!;
    const ids = await seedBookmarks(db, user, 3, { collectionId: c.id });
    const publicUrl = `/shared/${slug}`;
    expect(await store.share(user, c.id)).toEqual({ shared: false, publicUrl });
    expect(await store.shared(slug, 10)).toBeNull();

    expect(await store.setShared(user, c.id, true, NOW + 1)).toEqual({ shared: true, publicUrl });
    expect((await rawRow(db, 'collections', c.id))!.updated_at).toBe(NOW + 1);
    const page = await store.shared(slug, 2);
    expect(page).toMatchObject({ collection: { id: c.id, isShared: true, bookmarkCount: 3 }, more: true });
    expect(page!.bookmarks.map((b) => b.id)).toEqual([ids[2], ids[1]]);
    expect((await store.shared(slug, 3))!.more).toBe(false);
    expect(await store.shared('nosuchslug000000', 3)).toBeNull();

    await store.trash(user, c.id, NOW + 2);
    expect(await store.shared(slug, 3)).toBeNull();
    expect(await store.share(user, c.id)).toEqual({ shared: true, publicUrl });
    await rejection(store.setShared(user, c.id, false, NOW), 'CONFLICT');
    await store.restore(user, c.id, NOW + 3);
    expect((await store.shared(slug, 3))!.collection.depth).toBe(0);

    expect(await store.setShared(user, c.id, false, NOW + 4)).toEqual({ shared: false, publicUrl });
    expect(await store.shared(slug, 3)).toBeNull();
  });

  it('gives every collection its own slug, and a shared child its depth', async () => {
    const [a, b] = await chain(2);
    expect(a!.shareSlug).not.toBe(b!.shareSlug);
    await store.setShared(user, b!.id, true, NOW);
    expect((await store.shared(b!.shareSlug!, 1))!.collection).toMatchObject({ id: b!.id, depth: 1, parentId: a!.id });
  });
});
