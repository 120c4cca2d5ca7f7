import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type CreateBookmarkBody,
  ListBookmarksQuery,
  MAX_TAGS_PER_BOOKMARK,
  MAX_TAGS_PER_USER,
} from '../../../lib/api/bookmarks.ts';
import { encodeCursor } from '../../../server/bookmarks/cursor.ts';
import type { BookmarksStore, DetectedFields } from '../../../server/store/bookmarks.ts';
import { PgBookmarks } from '../../../server/store/postgres/bookmarks.ts';
import { PgBookmarkSearch } from '../../../server/store/postgres/bookmark-search.ts';
import { SHORT_QUERY_SCAN } from '../../../server/store/shared/search-terms.ts';
import { DUPLICATES_SQL, SqliteBookmarks } from '../../../server/store/sqlite/bookmarks.ts';
import { startPostgres, type TestPostgres } from '../../support/postgres.ts';
import { addCollection, addUser, insertBookmarks, type PgTestDb, postgresDb, sqliteDb, type TestDb } from './store-backends.ts';

let cluster: TestPostgres;
beforeAll(async () => {
  cluster = await startPostgres();
});
afterAll(async () => {
  await cluster.stop();
});

/** The same assertions on both backends: PostgreSQL must answer as SQLite does. */
const backends: [string, () => Promise<{ db: TestDb; store: BookmarksStore }>][] = [
  ['SQLite', async () => {
    const db = sqliteDb();
    return { db, store: new SqliteBookmarks(db.db) };
  }],
  ['PostgreSQL', async () => {
    const db = await postgresDb(cluster);
    return { db, store: new PgBookmarks(db.db) };
  }],
];

const T = Date.UTC(2026, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();

/** What detection gives a new bookmark, the supplied title and description already applied (as the save flow does). */
const detected = (title = 'Detected title', description = 'Detected description'): DetectedFields => ({
  title,
  description,
  excerpt: 'Excerpt',
  favicon: 'https://a.example/favicon.ico',
  type: 'article',
  httpStatusCode: 200,
  linkStatus: 'ok',
  metadataStatus: 'done',
});

/** A list query as the route parses it from the query string. */
const list = (query: Record<string, string | number | undefined> = {}) =>
  ListBookmarksQuery.parse(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === undefined ? undefined : String(v)])));
const titles = (bookmarks: { title: string }[]) => bookmarks.map((b) => b.title);

describe.each(backends)('%s bookmarks store', (_backend, open) => {
  let db: TestDb;
  let store: BookmarksStore;
  let user: string;

  beforeAll(async () => {
    ({ db, store } = await open());
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    user = await addUser(db);
  });

  const save = async (url: string, input: Partial<CreateBookmarkBody> = {}, at = T, owner = user) => {
    const body = { url, title: `Title of ${url}`, description: '', ...input };
    return (await store.save(owner, body, { ...detected(body.title, body.description), type: input.type ?? 'article' }, at)).bookmark;
  };

  /** Every page of a listing, following cursors. */
  async function allPages(query: Record<string, string>, limit = 2): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await store.list(user, list({ ...query, limit, cursor }));
      seen.push(...page.data.map((b) => b.title));
      expect(page.hasMore).toBe(page.cursor !== null);
      if (page.cursor === null) return seen;
      cursor = page.cursor;
    }
    throw new Error('paging does not end');
  }

  describe('saving', () => {
    it('creates a bookmark from the input and the detected fields, with its tags and collection', async () => {
      const collection = await addCollection(db, user);
      const { bookmark, created } = await store.save(
        user,
        { url: 'https://www.Example.com/a?utm_source=x', note: 'n', tags: ['b', 'A/x'], collectionId: collection, isFavorite: true },
        detected(),
        T,
      );
      expect(created).toBe(true);
      expect(bookmark).toMatchObject({
        url: 'https://www.Example.com/a?utm_source=x',
        title: 'Detected title',
        description: 'Detected description',
        excerpt: 'Excerpt',
        note: 'n',
        type: 'article',
        isFavorite: true,
        tags: ['A/x', 'b'],
        collectionId: collection,
        domain: 'example.com',
        favicon: 'https://a.example/favicon.ico',
        coverImage: null,
        clickCount: 0,
        metadataStatus: 'done',
        linkStatus: 'ok',
        httpStatusCode: 200,
        lastCheckedAt: iso(T),
        createdAt: iso(T),
        updatedAt: iso(T),
        deletedAt: null,
      });
      expect(bookmark.id).toMatch(/^bm_/);
      expect(await store.get(user, bookmark.id)).toEqual(bookmark);
      expect((await store.tagsOf(user, bookmark.id)).map((t) => [t.name, t.count])).toEqual([['A/x', 1], ['b', 1]]);
      expect(await store.stats(user)).toEqual({ total: 1, favorites: 1, unsorted: 0, noTags: 0, typeCounts: { link: 0, article: 1, video: 0, image: 0, document: 0 } });
    });

    it('applies the supplied fields to the bookmark that has the URL, or restores the trashed one', async () => {
      const first = await save('https://a.example/', { note: 'old' });
      const again = await store.save(user, { url: 'https://a.example/', title: '', note: 'new', tags: ['t'] }, detected('Other'), T + 5);
      expect(again.created).toBe(false);
      expect(again.bookmark).toMatchObject({ id: first.id, title: first.title, note: 'new', tags: ['t'], updatedAt: iso(T + 5) });

      await store.trash(user, first.id, T + 6);
      const restored = await store.saveExisting(user, { url: 'https://a.example/', isFavorite: true }, T + 7);
      expect(restored).toMatchObject({ id: first.id, deletedAt: null, isFavorite: true, updatedAt: iso(T + 7) });
      expect(await store.saveExisting(user, { url: 'https://b.example/' }, T + 8)).toBeNull();
      expect((await store.list(user, list())).data).toHaveLength(1);
    });

    it('refuses an unknown or trashed collection and a tag past the cap, saving nothing', async () => {
      const other = await addUser(db);
      const theirs = await addCollection(db, other);
      const trashed = await addCollection(db, user, T);
      for (const collectionId of [theirs, trashed, 'col_missing']) {
        await expect(save('https://x.example/', { collectionId })).rejects.toMatchObject({
          code: 'NOT_FOUND',
          message: `collection ${collectionId} not found`,
        });
      }
      await db.run(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${MAX_TAGS_PER_USER - 1})
         INSERT INTO tags (id, user_id, name, name_key, created_at) SELECT ? || i, ?, 't' || i, 't' || i, 0 FROM n`,
        [`tag_${user}_`, user],
      );
      await expect(save('https://x.example/', { tags: ['t1', 'new'] })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: `this needs 1 new tag and the account has ${MAX_TAGS_PER_USER} of at most ${MAX_TAGS_PER_USER} tags; delete or merge tags first`,
      });
      expect((await store.list(user, list())).data).toEqual([]);
      expect((await save('https://x.example/', { tags: ['T1'] })).tags).toEqual(['t1']);
    });
  });

  describe('changing one bookmark', () => {
    it('updates the fields given, with the URL\'s key and domain, and keeps the title when given an empty one', async () => {
      const b = await save('https://a.example/', { tags: ['x'] });
      const collection = await addCollection(db, user);
      const updated = await store.update(
        user,
        b.id,
        { url: 'https://www.b.example/p', description: 'D', excerpt: 'E', note: 'N', type: 'video', favicon: 'F', clickCount: 3, isFavorite: true, collectionId: collection, tags: ['y', 'Z'] },
        T + 1,
      );
      expect(updated).toMatchObject({
        url: 'https://www.b.example/p', domain: 'b.example', description: 'D', excerpt: 'E', note: 'N', type: 'video',
        favicon: 'F', clickCount: 3, isFavorite: true, collectionId: collection, tags: ['y', 'Z'], updatedAt: iso(T + 1),
      });
      expect((await store.update(user, b.id, { title: '' }, T + 2)).title).toBe('www.b.example/p');
      expect((await store.update(user, b.id, { title: 'New' }, T + 3)).title).toBe('New');
      const unchanged = await store.update(user, b.id, {}, T + 4);
      expect(unchanged.updatedAt).toBe(iso(T + 3));
      const dup = await save('https://c.example/');
      await save('https://b.example/p');
      expect((await store.duplicates(user)).groups.map((g) => [g.normalizedUrl, g.bookmarks.length])).toEqual([['b.example/p', 2]]);
      await expect(store.update(user, dup.id, { url: 'https://www.b.example/p' }, T + 5)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: `bookmark ${b.id} already has this URL`,
      });
    });

    it('answers NOT_FOUND for another user\'s bookmark and CONFLICT for a trashed one, changing nothing', async () => {
      const other = await addUser(db);
      const theirs = await save('https://theirs.example/', {}, T, other);
      const mine = await save('https://mine.example/');
      await store.trash(user, mine.id, T + 1);
      const attempts: [string, () => Promise<unknown>][] = [
        ['get', () => store.get(user, theirs.id)],
        ['tagsOf', () => store.tagsOf(user, theirs.id)],
        ['update', () => store.update(user, theirs.id, { note: 'x' }, T + 2)],
        ['setFavorite', () => store.setFavorite(user, theirs.id, true, T + 2)],
        ['move', () => store.move(user, theirs.id, null, T + 2)],
        ['trash', () => store.trash(user, theirs.id, T + 2)],
        ['restore', () => store.restore(user, theirs.id, T + 2)],
        ['deletePermanently', () => store.deletePermanently(user, theirs.id)],
        ['addTag', () => store.addTag(user, theirs.id, 'x', T + 2)],
      ];
      for (const [, attempt] of attempts) {
        await expect(attempt()).rejects.toMatchObject({ code: 'NOT_FOUND', message: `bookmark ${theirs.id} not found` });
      }
      for (const attempt of [
        () => store.update(user, mine.id, { note: 'x' }, T + 2),
        () => store.setFavorite(user, mine.id, true, T + 2),
        () => store.move(user, mine.id, null, T + 2),
        () => store.addTag(user, mine.id, 'x', T + 2),
        () => store.removeTag(user, mine.id, 'tag_x', T + 2),
      ]) {
        await expect(attempt()).rejects.toMatchObject({ code: 'CONFLICT', message: `bookmark ${mine.id} is in the trash; restore it first` });
      }
      expect(await store.get(other, theirs.id)).toEqual(theirs);
      expect((await store.get(user, mine.id)).updatedAt).toBe(iso(T + 1));
    });

    it('favourites and moves, moving updatedAt only when something changes', async () => {
      const b = await save('https://a.example/');
      const collection = await addCollection(db, user);
      expect(await store.setFavorite(user, b.id, true, T + 1)).toMatchObject({ isFavorite: true, updatedAt: iso(T + 1) });
      expect(await store.setFavorite(user, b.id, true, T + 2)).toMatchObject({ isFavorite: true, updatedAt: iso(T + 1) });
      expect(await store.move(user, b.id, collection, T + 3)).toMatchObject({ collectionId: collection, updatedAt: iso(T + 3) });
      expect(await store.move(user, b.id, collection, T + 4)).toMatchObject({ updatedAt: iso(T + 3) });
      await expect(store.move(user, b.id, await addCollection(db, user, T), T + 5)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await store.move(user, b.id, null, T + 6)).toMatchObject({ collectionId: null, updatedAt: iso(T + 6) });
    });

    it('trashes and restores (to Unsorted when its collection is gone), deletes, empties the trash', async () => {
      const collection = await addCollection(db, user);
      const a = await save('https://a.example/', { collectionId: collection });
      const b = await save('https://b.example/', { collectionId: collection, tags: ['t'] });
      const c = await save('https://c.example/');
      expect(await store.trash(user, a.id, T + 1)).toMatchObject({ deletedAt: iso(T + 1), updatedAt: iso(T + 1) });
      expect(await store.trash(user, a.id, T + 2)).toMatchObject({ deletedAt: iso(T + 1) });
      expect(await store.restore(user, c.id, T + 3)).toEqual(c);
      expect(await store.restore(user, a.id, T + 4)).toMatchObject({ deletedAt: null, collectionId: collection, updatedAt: iso(T + 4) });
      await store.trash(user, a.id, T + 5);
      await store.trash(user, b.id, T + 6);
      await db.run('UPDATE collections SET deleted_at = ? WHERE id = ?', [T + 7, collection]);
      expect(await store.restore(user, a.id, T + 8)).toMatchObject({ deletedAt: null, collectionId: null });
      await store.deletePermanently(user, a.id);
      await expect(store.get(user, a.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(store.deletePermanently(user, a.id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: `bookmark ${a.id} not found` });
      await store.trash(user, c.id, T + 9);
      expect(await store.emptyTrash(user)).toBe(2);
      expect(await store.emptyTrash(user)).toBe(0);
      expect((await store.listTrash(user, { limit: 50 })).data).toEqual([]);
      expect(await store.stats(user)).toMatchObject({ total: 0 });
    });
  });

  describe('tags of one bookmark', () => {
    it('adds a tag with its ancestors (reusing any case), removes the link only, and refuses a full bookmark', async () => {
      const b = await save('https://a.example/', { tags: ['Work'] });
      // A new level is spelt as given, an existing one keeps its first spelling.
      expect((await store.addTag(user, b.id, 'work/Deep', T + 1)).map((t) => [t.name, t.count])).toEqual([['Work', 1], ['work/Deep', 1]]);
      expect((await store.addTag(user, b.id, 'WORK/deep', T + 2)).map((t) => t.name)).toEqual(['Work', 'work/Deep']);
      expect((await store.get(user, b.id)).updatedAt).toBe(iso(T + 1));
      const [work] = await store.tagsOf(user, b.id);
      expect((await store.removeTag(user, b.id, work!.id, T + 3)).map((t) => t.name)).toEqual(['work/Deep']);
      await expect(store.removeTag(user, b.id, work!.id, T + 4)).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: `tag ${work!.id} not found on bookmark ${b.id}`,
      });
      const full = await save('https://full.example/', { tags: Array.from({ length: MAX_TAGS_PER_BOOKMARK }, (_, i) => `f${i}`) });
      expect((await store.addTag(user, full.id, 'F0', T + 5)).length).toBe(MAX_TAGS_PER_BOOKMARK);
      await expect(store.addTag(user, full.id, 'one-more', T + 6)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: `bookmark already at ${MAX_TAGS_PER_BOOKMARK} tags: ${full.id}`,
      });
      expect((await store.tagsOf(user, full.id)).some((t) => t.name === 'one-more')).toBe(false);
    });
  });

  describe('bulk changes', () => {
    it('change the named bookmarks and count only the rows that changed', async () => {
      const collection = await addCollection(db, user);
      const ids: string[] = [];
      for (const [i, n] of ['a', 'b', 'c'].entries()) ids.push((await save(`https://${n}.example/`, {}, T + i)).id);
      expect(await store.bulkFavorite(user, ids.slice(0, 2), true, T + 10)).toEqual({ ids: ids.slice(0, 2), changed: 2 });
      expect(await store.bulkFavorite(user, ids, true, T + 11)).toEqual({ ids, changed: 1 });
      expect(await store.bulkMove(user, ids.slice(1), collection, T + 12)).toEqual({ ids: ids.slice(1), changed: 2 });
      expect(await store.bulkMove(user, ids, collection, T + 13)).toEqual({ ids, changed: 1 });
      const tagged = await store.bulkTag(user, ids.slice(0, 2), 'Bulk/Tag', T + 14);
      expect(tagged).toMatchObject({ ids: ids.slice(0, 2), changed: 2, tag: { name: 'Bulk/Tag', count: 2 } });
      expect(await store.bulkTag(user, ids, 'bulk/tag', T + 15)).toMatchObject({ changed: 1, tag: { id: tagged.tag.id, count: 3 } });
      expect((await store.get(user, ids[0]!)).updatedAt).toBe(iso(T + 14));
      expect(await store.bulkUntag(user, ids.slice(1), tagged.tag.id, T + 16)).toEqual({ ids: ids.slice(1), changed: 2 });
      expect(await store.bulkUntag(user, ids, tagged.tag.id, T + 17)).toEqual({ ids, changed: 1 });
      expect(await store.bulkTrash(user, ids.slice(0, 1), T + 18)).toEqual({ ids: ids.slice(0, 1), changed: 1 });
      expect(await store.bulkTrash(user, ids, T + 19)).toEqual({ ids, changed: 2 });
      expect((await store.listTrash(user, { limit: 50 })).data.map((b) => b.id)).toEqual([ids[2], ids[1], ids[0]]);
    });

    it('change nothing when an id is not the user\'s, the collection or tag is unknown, or a bookmark is trashed', async () => {
      const other = await addUser(db);
      const theirs = await save('https://theirs.example/', {}, T, other);
      const a = await save('https://a.example/', {}, T);
      const b = await save('https://b.example/', {}, T + 1);
      const c = await save('https://c.example/', {}, T + 2);
      const { tag } = await store.bulkTag(user, [a.id], 'kept', T + 3);
      await store.trash(user, c.id, T + 4);
      const before = (await store.list(user, list())).data;
      const missing = [a.id, theirs.id, 'bm_nope'];
      for (const attempt of [
        () => store.bulkTrash(user, missing, T + 5),
        () => store.bulkFavorite(user, missing, true, T + 5),
        () => store.bulkMove(user, missing, null, T + 5),
        () => store.bulkTag(user, missing, 'x', T + 5),
        () => store.bulkUntag(user, missing, tag.id, T + 5),
      ]) {
        await expect(attempt()).rejects.toMatchObject({ code: 'NOT_FOUND', message: `bookmarks not found: ${theirs.id}, bm_nope` });
      }
      await expect(store.bulkMove(user, [a.id], 'col_nope', T + 5)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'collection col_nope not found' });
      await expect(store.bulkUntag(user, [a.id], 'tag_nope', T + 5)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'tag tag_nope not found' });
      const trashedToo = [c.id, b.id, a.id];
      for (const attempt of [
        () => store.bulkFavorite(user, trashedToo, true, T + 5),
        () => store.bulkMove(user, trashedToo, null, T + 5),
        () => store.bulkTag(user, trashedToo, 'x', T + 5),
        () => store.bulkUntag(user, trashedToo, tag.id, T + 5),
      ]) {
        await expect(attempt()).rejects.toMatchObject({ code: 'CONFLICT', message: `bookmark in the trash (restore first): ${c.id}` });
      }
      const full = await save('https://full.example/', { tags: Array.from({ length: MAX_TAGS_PER_BOOKMARK }, (_, i) => `f${i}`) }, T + 6);
      await expect(store.bulkTag(user, [a.id, full.id], 'x', T + 7)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: `bookmark already at ${MAX_TAGS_PER_BOOKMARK} tags: ${full.id}`,
      });
      expect((await store.list(user, list())).data.filter((x) => x.id !== full.id)).toEqual(before);
      expect((await store.tagsOf(user, a.id)).map((t) => t.name)).toEqual(['kept']);
    });

    it('take 50 ids (the schema\'s most) in one statement each', async () => {
      await insertBookmarks(db, user, Array.from({ length: 50 }, (_, i) => ({ createdAt: T + i })));
      const ids = (await store.list(user, list({ limit: 50 }))).data.map((b) => b.id);
      expect(await store.bulkTag(user, ids, 'fifty', T + 100)).toMatchObject({ changed: 50, tag: { count: 50 } });
      expect(await store.bulkTrash(user, ids, T + 101)).toEqual({ ids, changed: 50 });
      expect(await store.stats(user)).toMatchObject({ total: 0 });
    });
  });

  describe('listing', () => {
    const seed = async () => {
      const collection = await addCollection(db, user);
      // created_at ties (b, c and d) are broken by seq, as are title and domain ties.
      const rows: [string, string, number, Partial<CreateBookmarkBody>][] = [
        ['https://beta.example/1', 'banana', T + 1, { isFavorite: true, type: 'video' }],
        ['https://alpha.example/1', 'Apple', T + 2, { collectionId: collection }],
        ['https://www.alpha.example/2', 'apple', T + 2, { isFavorite: true }],
        ['https://beta.example/2', '_under', T + 2, {}],
        ['https://gamma.example/1', 'Émile', T + 3, { isFavorite: true, collectionId: collection }],
        ['https://alpha.example/3', 'Zed', T + 4, {}],
      ];
      for (const [url, title, at, input] of rows) await save(url, { title, ...input }, at);
      return collection;
    };

    it('pages every order by cursor, ties broken by seq, titles folded as NOCASE (ASCII only)', async () => {
      await seed();
      expect(await allPages({ sortBy: 'newest' })).toEqual(['Zed', 'Émile', '_under', 'apple', 'Apple', 'banana']);
      expect(await allPages({ sortBy: 'oldest' })).toEqual(['banana', 'Apple', 'apple', '_under', 'Émile', 'Zed']);
      expect(await allPages({ sortBy: 'title' })).toEqual(['_under', 'Apple', 'apple', 'banana', 'Zed', 'Émile']);
      expect(await allPages({ sortBy: 'domain' })).toEqual(['Zed', 'apple', 'Apple', '_under', 'banana', 'Émile']);
      for (const limit of [1, 4, 6, 7]) expect(await allPages({ sortBy: 'title' }, limit)).toHaveLength(6);
    });

    it('filters by favourite, collection, domain and type', async () => {
      const collection = await seed();
      expect(await allPages({ isFavorite: 'true' })).toEqual(['Émile', 'apple', 'banana']);
      expect(await allPages({ isFavorite: 'false', sortBy: 'oldest' })).toEqual(['Apple', '_under', 'Zed']);
      expect(await allPages({ collectionId: collection })).toEqual(['Émile', 'Apple']);
      expect(await allPages({ domain: 'https://WWW.Alpha.example/x' })).toEqual(['Zed', 'apple', 'Apple']);
      expect(await allPages({ type: 'video' })).toEqual(['banana']);
      expect(await allPages({ isFavorite: 'true', sortBy: 'title', collectionId: collection })).toEqual(['Émile']);
    });

    it('filters by a URL once normalised', async () => {
      await seed();
      expect(await allPages({ url: 'http://alpha.example/2/' })).toEqual(['apple']);
      expect(await allPages({ url: 'https://beta.example/1', isFavorite: 'true', sortBy: 'title' })).toEqual(['banana']);
      expect(await allPages({ url: 'https://alpha.example/4' })).toEqual([]);
    });

    it('answers the favourites window by title or domain in one page, truncated to the newest', async () => {
      await seed();
      expect(await store.list(user, list({ isFavorite: 'true', sortBy: 'title', limit: 2 }))).toMatchObject({
        cursor: null, hasMore: false, truncated: true,
      });
      expect(titles((await store.list(user, list({ isFavorite: 'true', sortBy: 'title', limit: 2 }))).data)).toEqual(['apple', 'Émile']);
      expect(titles((await store.list(user, list({ isFavorite: 'true', sortBy: 'domain', limit: 3 }))).data)).toEqual(['apple', 'banana', 'Émile']);
      expect((await store.list(user, list({ isFavorite: 'true', sortBy: 'domain', limit: 3 }))).truncated).toBe(false);
      await expect(store.list(user, list({ isFavorite: 'true', sortBy: 'title', cursor: encodeCursor({ order: 'newest', seq: 1, time: 0, text: '' }) })))
        .rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    });

    it('refuses a cursor of another order or not made here, and reads cursors whose time BIGINT cannot hold', async () => {
      await seed();
      await expect(store.list(user, list({ cursor: 'bm_nope' }))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      await expect(store.list(user, list({ sortBy: 'title', cursor: encodeCursor({ order: 'newest', seq: 1, time: T, text: '' }) })))
        .rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      const after = async (sortBy: string, time: number, seq = 1) =>
        titles((await store.list(user, list({ sortBy, cursor: encodeCursor({ order: sortBy as 'newest', seq, time, text: '' }) }))).data);
      expect(await after('newest', T + 2.5)).toEqual(['_under', 'apple', 'Apple', 'banana']);
      expect(await after('oldest', T + 1.5)).toEqual(['Apple', 'apple', '_under', 'Émile', 'Zed']);
      expect(await after('newest', 1e300)).toHaveLength(6);
      expect(await after('newest', Infinity)).toHaveLength(6);
      expect(await after('oldest', 1e300)).toEqual([]);
      expect(await after('oldest', -1e300)).toHaveLength(6);
      expect(await after('newest', -1e300)).toEqual([]);
    });

    it('lists the trash most recently trashed first, by cursor', async () => {
      await seed();
      const all = (await store.list(user, list())).data;
      for (const [i, b] of all.entries()) await store.trash(user, b.id, T + 100 - (i % 3));
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.listTrash(user, { limit: 4, cursor });
        seen.push(...titles(page.data));
        cursor = page.cursor ?? undefined;
      } while (cursor !== undefined);
      expect(seen).toEqual(['Zed', 'apple', 'Émile', 'Apple', '_under', 'banana']);
      await expect(store.listTrash(user, { limit: 4, cursor: encodeCursor({ order: 'newest', seq: 1, time: 0, text: '' }) })).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('was made for sortBy=newest, not the trash'),
      });
    });

    it('answers domains, stats and duplicates from the kept counts', async () => {
      await seed();
      await save('https://alpha.example/1?utm_source=feed', { title: 'dup' }, T + 9);
      const zed = (await store.list(user, list())).data.find((b) => b.title === 'Zed')!;
      await store.trash(user, zed.id, T + 10);
      expect(await store.domains(user)).toEqual([
        { domain: 'alpha.example', count: 3 },
        { domain: 'beta.example', count: 2 },
        { domain: 'gamma.example', count: 1 },
      ]);
      expect(await store.stats(user)).toEqual({
        total: 6, favorites: 3, unsorted: 4, noTags: 6, typeCounts: { link: 0, article: 5, video: 1, image: 0, document: 0 },
      });
      const { groups } = await store.duplicates(user);
      expect(groups.map((g) => [g.normalizedUrl, titles(g.bookmarks)])).toEqual([['alpha.example/1', ['Apple', 'dup']]]);
      const fresh = await addUser(db);
      expect(await store.stats(fresh)).toEqual({ total: 0, favorites: 0, unsorted: 0, noTags: 0, typeCounts: { link: 0, article: 0, video: 0, image: 0, document: 0 } });
      expect(await store.domains(fresh)).toEqual([]);
      expect(await store.duplicates(fresh)).toEqual({ groups: [] });
    });
  });

  describe('search', () => {
    const found = async (text: string, limit = 100, owner = user) => titles(await store.search(owner, text, limit));

    it('matches substrings of title, description and URL in any case and any script, keeping accents', async () => {
      await save('https://ru.example/1', { title: 'Новости Москвы', description: '' }, T + 1);
      await save('https://el.example/1', { title: 'Ελληνική ΓΛΩΣΣΑ', description: '' }, T + 2);
      await save('https://fr.example/1', { title: 'Crème BRÛLÉE', description: 'Café de Flore' }, T + 3);
      await save('https://ja.example/1', { title: '東京タワーの夜景', description: '' }, T + 4);
      await save('https://xn--e1afmkfd.example/путь', { title: 'Path', description: '' }, T + 5);
      await save('https://fr.example/2', { title: 'L\'ÉCOLE', description: '' }, T + 6);
      for (const [query, expected] of [
        ['москв', ['Новости Москвы']],
        ['НОВОСТИ', ['Новости Москвы']],
        ['γλωσσα', ['Ελληνική ΓΛΩΣΣΑ']],
        ['ΕΛΛΗΝ', ['Ελληνική ΓΛΩΣΣΑ']],
        ['ΓΛΩΣΣ', ['Ελληνική ΓΛΩΣΣΑ']],
        ['γλωσς', ['Ελληνική ΓΛΩΣΣΑ']],
        ['brûlée', ['Crème BRÛLÉE']],
        ['CAFÉ', ['Crème BRÛLÉE']],
        ['école', ['L\'ÉCOLE']],
        ['タワー', ['東京タワーの夜景']],
        ['京タワ', ['東京タワーの夜景']],
        ['ПУТЬ', ['Path']],
        ['brulee', []],
        ['мо', ['Новости Москвы']],
        ['Ω', ['Ελληνική ΓΛΩΣΣΑ']],
        ['É', ['L\'ÉCOLE', 'Crème BRÛLÉE']],
        ['東京', ['東京タワーの夜景']],
        ['зз', []],
        ['.EXAMPLE/1', ['東京タワーの夜景', 'Crème BRÛLÉE', 'Ελληνική ΓΛΩΣΣΑ', 'Новости Москвы']],
      ] as const) {
        expect(await found(query), query).toEqual(expected);
      }
      expect(await found('example', 2)).toEqual(['L\'ÉCOLE', 'Path']);
    });

    it('takes quotes, %, _ and \\ as plain characters', async () => {
      await save('https://q.example/1', { title: 'say "hi" NEAR me', description: '' }, T + 1);
      await save('https://q.example/2', { title: '100% sure_thing a\\b', description: '' }, T + 2);
      await save('https://q.example/3', { title: '1000 sureXthing', description: '' }, T + 3);
      for (const [query, expected] of [
        ['"hi"', ['say "hi" NEAR me']],
        ['hi" NEAR', ['say "hi" NEAR me']],
        ['NEAR(', []],
        ['a*', []],
        ['0% s', ['100% sure_thing a\\b']],
        ['%', ['100% sure_thing a\\b']],
        ['e_t', ['100% sure_thing a\\b']],
        ['a\\b', ['100% sure_thing a\\b']],
        ['\\', ['100% sure_thing a\\b']],
        ['sure\u0000', []],
        ['\u0000', []],
      ] as const) {
        expect(await found(query), query).toEqual(expected);
      }
    });

    it('follows edits, trash, restore and deletion, and never shows another user\'s bookmarks', async () => {
      const other = await addUser(db);
      await save('https://other.example/1', { title: 'Zebra crossing' }, T, other);
      const b = await save('https://idx.example/1', { title: 'Zebra' }, T + 1);
      expect(await found('zebra')).toEqual(['Zebra']);
      await store.update(user, b.id, { title: 'Giraffe', description: 'Tall Жираф' }, T + 2);
      expect(await found('zebra')).toEqual([]);
      expect(await found('жираф')).toEqual(['Giraffe']);
      await store.update(user, b.id, { url: 'https://idx.example/okapi' }, T + 3);
      expect(await found('OKAPI')).toEqual(['Giraffe']);
      await store.trash(user, b.id, T + 4);
      expect(await found('giraffe')).toEqual([]);
      expect(await found('gi')).toEqual([]);
      await store.restore(user, b.id, T + 5);
      expect(await found('giraffe')).toEqual(['Giraffe']);
      await store.deletePermanently(user, b.id);
      expect(await found('giraffe')).toEqual([]);
      expect(await found('zebra', 100, other)).toEqual(['Zebra crossing']);
    });

    it(`looks through the newest ${SHORT_QUERY_SCAN} bookmarks for one or two characters, the index for more`, async () => {
      await save('https://short.example/old', { title: 'Ωmega' }, T);
      await insertBookmarks(db, user, Array.from({ length: SHORT_QUERY_SCAN }, (_, i) => ({ createdAt: T + 1 + i })));
      expect(await found('ω')).toEqual([]);
      expect(await found('ωm')).toEqual([]);
      expect(await found('ωme')).toEqual(['Ωmega']);
      // A word in every bookmark: the newest first, as the list answers them.
      const newest = titles((await store.list(user, list({ limit: 100 }))).data);
      expect(await found('TITLE ', 100)).toEqual(newest);
      expect(await found('le 99', 5)).toEqual(['Title 9999', 'Title 9998', 'Title 9997', 'Title 9996', 'Title 9995']);
    });
  });

  it('purges every user\'s bookmarks trashed before the cutoff', async () => {
    const { db: own, store: fresh } = await open();
    try {
      const [u1, u2] = [await addUser(own), await addUser(own)];
      const saveFor = async (owner: string, url: string) => (await fresh.save(owner, { url, title: url }, detected(), T)).bookmark;
      const a = await saveFor(u1, 'https://a.example/');
      const b = await saveFor(u2, 'https://b.example/');
      const c = await saveFor(u2, 'https://c.example/');
      await saveFor(u1, 'https://kept.example/');
      await fresh.trash(u1, a.id, T + 10);
      await fresh.trash(u2, b.id, T + 20);
      await fresh.trash(u2, c.id, T + 30);
      expect(await fresh.purgeTrashedBefore(T + 30)).toBe(2);
      expect(await fresh.purgeTrashedBefore(T + 30)).toBe(0);
      expect((await fresh.listTrash(u2, { limit: 50 })).data.map((x) => x.id)).toEqual([c.id]);
      expect((await fresh.stats(u1)).total).toBe(1);
    } finally {
      await own.close();
    }
  });
});

describe('PostgreSQL only', () => {
  let test: PgTestDb;
  beforeAll(async () => {
    test = await postgresDb(cluster);
  });
  afterAll(async () => {
    await test.close();
  });

  it('takes one user\'s writes one at a time: the same URL saved at once makes one bookmark', async () => {
    const user = await addUser(test);
    const store = new PgBookmarks(test.db);
    const saves = await Promise.all(
      Array.from({ length: 6 }, (_, i) => store.save(user, { url: 'https://same.example/', note: `n${i}`, tags: [`t${i}`] }, detected(), T + i)),
    );
    expect(saves.filter((s) => s.created)).toHaveLength(1);
    expect(new Set(saves.map((s) => s.bookmark.id)).size).toBe(1);
    expect((await store.stats(user)).total).toBe(1);
    expect((await store.get(user, saves[0]!.bookmark.id)).tags).toHaveLength(1);
  });

  it('answers a word of three characters or more in any script from the pg_trgm indexes, not by scanning', async () => {
    const user = await addUser(test);
    await insertBookmarks(
      test,
      user,
      Array.from({ length: 5_000 }, (_, i) => ({ createdAt: T + i, title: `Common words ${i}${i % 500 === 0 ? ' Москва école 東京タワー' : ''}` })),
    );
    // What autovacuum does after a bulk load: GIN's pending list merged, statistics taken.
    await test.db.run('VACUUM ANALYZE bookmarks');
    const search = new PgBookmarkSearch(test.db);
    const plan = async (text: string) => {
      const { text: sql, params } = search.statement(user, text, 50);
      return (await test.db.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).map((r) => r['QUERY PLAN']).join('\n');
    };
    for (const rare of ['МОСКВ', 'ÉCOLE', 'タワー', 'words 4999']) {
      const shown = await plan(rare);
      for (const field of ['title', 'description', 'url']) expect(shown, rare).toMatch(new RegExp(`Bitmap Index Scan on bookmarks_search_${field}`));
      expect(shown, rare).not.toMatch(/Seq Scan on bookmarks/);
      expect((await search.find(user, rare, 50)).length, rare).toBe(rare === 'words 4999' ? 1 : 10);
    }
    // A word in every bookmark is met by walking the newest, which stops after one page.
    expect(await plan('common')).toMatch(/Index Scan Backward using bookmarks_newest/);
  }, 60_000);
});

describe('SQLite duplicates plan', () => {
  it('finds each group\'s newest member by its URL, not by walking the user\'s bookmarks newest first (no statistics taken)', async () => {
    const test = sqliteDb();
    try {
      const plan = (await test.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${DUPLICATES_SQL}`, [{ userId: 'u', groups: 500 }])).map((r) => r.detail);
      expect(plan.filter((step) => step.startsWith('SEARCH m '))).toEqual([
        'SEARCH m USING INDEX bookmarks_url_key (user_id=? AND url_key=?)',
        'SEARCH m USING INDEX bookmarks_url_key (user_id=? AND url_key=?)',
      ]);
    } finally {
      await test.close();
    }
  });
});
