import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Bookmark, BookmarkPage, BookmarkStats, DomainCount, DuplicatesResult } from '../../lib/api/bookmarks.ts';
import { dataOf, expectError } from '../support/expect.ts';
import type { TestServer, TestUser } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { addCollection, allPages, freezeClock, save } from './bookmarks-fixtures.ts';

let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started), { raiseLimits: true });

const page = async (u: TestUser, query: string): Promise<BookmarkPage> => dataOf(await u.api('GET', `/bookmarks?${query}`), BookmarkPage);
const ids = (list: { id: string }[]): string[] => list.map((b) => b.id);

/** SQLite's NOCASE: ASCII letters folded, then byte order. */
const nocase = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const cmp = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);

/** Expected orders, with `rank` standing in for seq (creation order). */
const expectedOrder: Record<string, (a: Bookmark & { rank: number }, b: Bookmark & { rank: number }) => number> = {
  newest: (a, b) => cmp(b.createdAt, a.createdAt) || b.rank - a.rank,
  oldest: (a, b) => cmp(a.createdAt, b.createdAt) || a.rank - b.rank,
  title: (a, b) => cmp(nocase(a.title), nocase(b.title)) || a.rank - b.rank,
  domain: (a, b) => cmp(a.domain, b.domain) || cmp(b.createdAt, a.createdAt) || b.rank - a.rank,
};

describe('GET /bookmarks paging', () => {
  let u: TestUser;
  let initial: (Bookmark & { rank: number })[];
  const titles = ['beta', 'Alpha', 'alpha', 'ALPHA', 'gamma', 'Beta', 'delta', 'alpha', 'Zeta', 'epsilon', 'beta', 'eta', 'Theta'];
  const hosts = ['b.example', 'a.example', 'c.example', 'a.example', 'b.example'];

  beforeAll(async () => {
    u = await t.user();
    initial = [];
    // Two bursts of identical created_at values, with a tick between them.
    for (const burst of [0, 1]) {
      const clock = freezeClock(t);
      for (let i = burst; i < titles.length; i += 2) {
        const b = await save(u, { url: `https://${hosts[i % hosts.length]}/p${i}`, title: titles[i]! });
        initial.push({ ...b, rank: initial.length });
      }
      clock.restore();
      await t.advance(5);
    }
  });

  it.each(['newest', 'oldest', 'title', 'domain'])('sortBy=%s returns each bookmark exactly once, in order, across pages with inserts between them', async (sortBy) => {
    let inserted = 0;
    const clock = freezeClock(t);
    try {
      const { pages, ids: seen } = await allPages(u, `sortBy=${sortBy}&limit=3`, async () => {
        // Same created_at as other rows, and titles and domains that sort anywhere.
        inserted += 1;
        await save(u, { url: `https://${'abcz'[inserted % 4]}.example/${sortBy}/${inserted}`, title: `${'aBz'[inserted % 3]}-new` });
      });
      expect(new Set(seen).size).toBe(seen.length);
      const initialIds = new Set(initial.map((b) => b.id));
      const seenInitial = seen.filter((id) => initialIds.has(id));
      expect(seenInitial).toEqual(ids([...initial].sort(expectedOrder[sortBy]!)));
      pages.slice(0, -1).forEach((p) => expect(p).toMatchObject({ hasMore: true, truncated: false, cursor: expect.any(String) }));
      expect(pages.at(-1)).toMatchObject({ hasMore: false, truncated: false, cursor: null });
    } finally {
      clock.restore();
    }
  });

  it('answers hasMore false when the last page is exactly full', async () => {
    const v = await t.user();
    for (let i = 0; i < 4; i++) await save(v, { url: `https://full.example/${i}` });
    const first = await page(v, 'limit=2');
    expect(first).toMatchObject({ hasMore: true });
    expect(await page(v, `limit=2&cursor=${first.cursor}`)).toMatchObject({ hasMore: false, cursor: null });
    expect(await page(v, 'limit=4')).toMatchObject({ hasMore: false, cursor: null });
  });

  it('defaults to 50 per page, newest first, and clamps the limit to 200', async () => {
    const v = await t.user();
    const clock = freezeClock(t);
    try {
      for (let i = 0; i < 60; i++) await save(v, { url: `https://many.example/${i}` });
    } finally {
      clock.restore();
    }
    const first = await page(v, '');
    expect(first.data).toHaveLength(50);
    expect(first.data[0]!.url).toBe('https://many.example/59');
    expect((await page(v, 'limit=100000')).data).toHaveLength(60);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['sortBy=random', 'sortBy'],
    ['type=podcast', 'type'],
    ['isFavorite=yes', 'isFavorite'],
    ['cursor=', 'cursor'],
    ['cursor=%25%25%25', 'cursor'],
    ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    expect(expectError(await u.api('GET', `/bookmarks?${query}`), 400, 'VALIDATION_ERROR')).toContain(field);
  });

  it('refuses a cursor made for another sort order', async () => {
    const first = await page(u, 'sortBy=title&limit=2');
    const res = await u.api('GET', `/bookmarks?sortBy=newest&cursor=${first.cursor}`);
    expect(expectError(res, 400, 'VALIDATION_ERROR')).toMatch(/cursor: .*sortBy=title/);
  });

  it('carries very long titles in the cursor', async () => {
    const v = await t.user();
    const long = 'é'.repeat(2000);
    await save(v, { url: 'https://long.example/1', title: long });
    await save(v, { url: 'https://long.example/2', title: long });
    const first = await page(v, 'sortBy=title&limit=1');
    const second = await page(v, `sortBy=title&limit=1&cursor=${first.cursor}`);
    expect([...ids(first.data), ...ids(second.data)]).toHaveLength(2);
    expect(second.data[0]!.id).not.toBe(first.data[0]!.id);
  });
});

describe('GET /bookmarks filters', () => {
  let u: TestUser;
  let col: string;
  const made: Record<string, Bookmark> = {};

  beforeAll(async () => {
    u = await t.user();
    col = await addCollection(db, u.userId);
    made.a = await save(u, { url: 'https://www.one.example/a', type: 'article', isFavorite: true, collectionId: col });
    made.b = await save(u, { url: 'https://one.example/b', type: 'video' });
    made.c = await save(u, { url: 'https://two.example/c', type: 'article', collectionId: col });
    made.d = await save(u, { url: 'https://two.example/d', type: 'article', isFavorite: true });
    made.e = await save(u, { url: 'https://one.example/e', type: 'article', isFavorite: true, collectionId: col });
    await u.api('DELETE', `/bookmarks/${(await save(u, { url: 'https://one.example/trashed', collectionId: col })).id}`);
  });

  const names = (list: Bookmark[]) => list.map((b) => Object.keys(made).find((k) => made[k]!.id === b.id)).sort();

  it.each([
    ['', ['a', 'b', 'c', 'd', 'e']],
    ['collectionId=COL', ['a', 'c', 'e']],
    ['domain=one.example', ['a', 'b', 'e']],
    ['domain=WWW.One.Example', ['a', 'b', 'e']],
    ['domain=https://one.example/path', ['a', 'b', 'e']],
    ['type=article', ['a', 'c', 'd', 'e']],
    ['isFavorite=true', ['a', 'd', 'e']],
    ['isFavorite=false', ['b', 'c']],
    ['collectionId=COL&domain=one.example&type=article&isFavorite=true', ['a', 'e']],
    ['collectionId=COL&isFavorite=false', ['c']],
    ['domain=nowhere.example', []],
    ['collectionId=col_unknown', []],
    // url matches once normalised (www, scheme, trailing slash), as the extension's saved-page index does.
    [`url=${encodeURIComponent('https://one.example/b')}`, ['b']],
    [`url=${encodeURIComponent('http://one.example/a/')}`, ['a']],
    [`isFavorite=true&url=${encodeURIComponent('https://one.example/e')}`, ['e']],
    [`url=${encodeURIComponent('https://one.example/trashed')}`, []],
    [`url=${encodeURIComponent('https://one.example/nowhere')}`, []],
  ])('%s → %j (trashed excluded)', async (query, expected) => {
    for (const sortBy of ['newest', 'oldest', 'title', 'domain']) {
      // isFavorite=true alone sorted by title or domain is the favourites window: one page of `limit`.
      const windowed = query === 'isFavorite=true' && (sortBy === 'title' || sortBy === 'domain');
      const { ids: got } = await allPages(u, `${query.replace('COL', col)}&sortBy=${sortBy}&limit=${windowed ? 50 : 2}`);
      const byId = new Map(Object.values(made).map((b) => [b.id, b]));
      expect(names(got.map((id) => byId.get(id)!)), sortBy).toEqual(expected);
    }
  });
});

describe('the favourites window (sortBy title or domain with isFavorite=true)', () => {
  let u: TestUser;
  let favorites: Bookmark[];

  beforeAll(async () => {
    u = await t.user();
    favorites = [];
    for (const [i, title] of ['e', 'a', 'd', 'b', 'c'].entries()) {
      favorites.push(await save(u, { url: `https://fav${5 - i}.example/`, title, isFavorite: true }));
      await save(u, { url: `https://plain${i}.example/`, title: `${title}-plain` });
      await t.advance(2);
    }
  });

  it('sorts only the most recently saved favorites, without a cursor, and says when more exist', async () => {
    const newest3 = favorites.slice(-3);
    const byTitle = await page(u, 'sortBy=title&isFavorite=true&limit=3');
    expect(byTitle).toMatchObject({ cursor: null, hasMore: false, truncated: true });
    expect(byTitle.data.map((b) => b.title)).toEqual(newest3.map((b) => b.title).sort());

    const byDomain = await page(u, 'sortBy=domain&isFavorite=true&limit=3');
    expect(byDomain).toMatchObject({ cursor: null, hasMore: false, truncated: true });
    expect(byDomain.data.map((b) => b.domain)).toEqual(newest3.map((b) => b.domain).sort());

    const all = await page(u, 'sortBy=title&isFavorite=true&limit=5');
    expect(all).toMatchObject({ cursor: null, hasMore: false, truncated: false });
    expect(all.data.map((b) => b.title)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('still checks a cursor passed to it', async () => {
    expectError(await u.api('GET', '/bookmarks?sortBy=title&isFavorite=true&cursor=xyz'), 400, 'VALIDATION_ERROR');
  });

  it('pages normally with newest, or with a domain, collection or type filter', async () => {
    const newest = await allPages(u, 'sortBy=newest&isFavorite=true&limit=2');
    expect(newest.ids).toEqual(ids([...favorites].reverse()));
    expect(newest.pages[0]).toMatchObject({ hasMore: true, truncated: false });

    const typed = await allPages(u, 'sortBy=title&isFavorite=true&type=link&limit=2');
    expect(typed.pages.map((p) => p.data.map((b) => b.title))).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(typed.pages.every((p) => !p.truncated)).toBe(true);
  });
});

describe('GET /bookmarks/search', () => {
  let u: TestUser;
  const made: Record<string, Bookmark> = {};

  beforeAll(async () => {
    u = await t.user();
    made.percent = await save(u, { url: 'https://s.example/1', title: '100% Pure', description: '' });
    made.hundred = await save(u, { url: 'https://s.example/2', title: '1000 Pure', description: '' });
    made.under = await save(u, { url: 'https://s.example/snake_case', title: 'Naming', description: '' });
    made.plain = await save(u, { url: 'https://s.example/snakeXcase', title: 'Other', description: 'About SNAKES' });
    made.back = await save(u, { url: 'https://s.example/3', title: 'C:\\path', description: '' });
    const trashed = await save(u, { url: 'https://s.example/trashed', title: 'Pure trash', description: '' });
    await u.api('DELETE', `/bookmarks/${trashed.id}`);
  });

  const search = async (qs: string): Promise<string[]> => {
    const list = dataOf(await u.api('GET', `/bookmarks/search?${qs}`), z.array(Bookmark));
    return list.map((b) => Object.keys(made).find((k) => made[k]!.id === b.id)!);
  };

  it('matches title, description and URL in any case, newest first, trashed excluded', async () => {
    expect(await search('q=pure')).toEqual(['hundred', 'percent']);
    expect(await search('q=SNAKE')).toEqual(['plain', 'under']);
    expect(await search('query=naming')).toEqual(['under']);
    // An empty q (a form's untouched field) does not hide the alias.
    expect(await search('q=&query=naming')).toEqual(['under']);
    expect(await search('q=nothing-like-this')).toEqual([]);
  });

  it('treats % and _ and \\ as plain characters', async () => {
    expect(await search(`q=${encodeURIComponent('100%')}`)).toEqual(['percent']);
    expect(await search('q=snake_case')).toEqual(['under']);
    expect(await search(`q=${encodeURIComponent('C:\\')}`)).toEqual(['back']);
  });

  it('honours limit', async () => {
    expect(await search('q=s.example&limit=2')).toHaveLength(2);
  });

  it('refuses a missing or blank query', async () => {
    expect(expectError(await u.api('GET', '/bookmarks/search'), 400, 'VALIDATION_ERROR')).toContain('q');
    expectError(await u.api('GET', '/bookmarks/search?q=%20%20'), 400, 'VALIDATION_ERROR');
  });
});

describe('GET /bookmarks/domains and /bookmarks/stats', () => {
  it('count active bookmarks only', async () => {
    const u = await t.user();
    const empty = dataOf(await u.api('GET', '/bookmarks/stats'), BookmarkStats);
    expect(empty).toEqual({ total: 0, favorites: 0, unsorted: 0, noTags: 0, typeCounts: { link: 0, article: 0, video: 0, image: 0, document: 0 } });
    expect(dataOf(await u.api('GET', '/bookmarks/domains'), z.array(DomainCount))).toEqual([]);

    const col = await addCollection(db, u.userId);
    await save(u, { url: 'https://b.example/1', type: 'video', isFavorite: true, tags: ['x'] });
    await save(u, { url: 'https://www.b.example/2', collectionId: col });
    await save(u, { url: 'https://a.example/1', type: 'article', tags: ['y'] });
    await save(u, { url: 'https://c.example/1', type: 'document', collectionId: col });
    await save(u, { url: 'https://c.example/2', type: 'image' });
    const trashed = await save(u, { url: 'https://c.example/3', isFavorite: true, tags: ['x'] });
    await u.api('DELETE', `/bookmarks/${trashed.id}`);

    expect(dataOf(await u.api('GET', '/bookmarks/domains'), z.array(DomainCount))).toEqual([
      { domain: 'b.example', count: 2 },
      { domain: 'c.example', count: 2 },
      { domain: 'a.example', count: 1 },
    ]);
    expect(dataOf(await u.api('GET', '/bookmarks/stats'), BookmarkStats)).toEqual({
      total: 5,
      favorites: 1,
      unsorted: 3,
      noTags: 3,
      typeCounts: { link: 1, article: 1, video: 1, image: 1, document: 1 },
    });
  });
});

describe('GET /bookmarks/duplicates', () => {
  it('groups active bookmarks by normalised URL, newest group first, oldest bookmark first', async () => {
    const u = await t.user();
    const a1 = await save(u, { url: 'https://dup-a.example/page' });
    await t.advance(2);
    const b1 = await save(u, { url: 'https://dup-b.example/x?b=2&a=1' });
    await t.advance(2);
    const a2 = await save(u, { url: 'http://www.dup-a.example/page/?utm_source=news' });
    await t.advance(2);
    const b2 = await save(u, { url: 'https://dup-b.example/x?a=1&b=2&fbclid=zzz#top' });
    await t.advance(2);
    await save(u, { url: 'https://single.example/' });
    await save(u, { url: 'https://dup-c.example/' });
    const c2 = await save(u, { url: 'http://dup-c.example' });
    await u.api('DELETE', `/bookmarks/${c2.id}`);

    const result = dataOf(await u.api('GET', '/bookmarks/duplicates'), DuplicatesResult);
    expect(result.groups.map((g) => ({ key: g.normalizedUrl, ids: ids(g.bookmarks) }))).toEqual([
      { key: 'dup-b.example/x?a=1&b=2', ids: [b1.id, b2.id] },
      { key: 'dup-a.example/page', ids: [a1.id, a2.id] },
    ]);
  });

  it('answers each member as a small record: what a client shows side by side and what a merge needs, not the whole bookmark', async () => {
    const u = await t.user();
    const col = await addCollection(db, u.userId);
    const plain = await save(u, { url: 'https://lean.example/a', title: 'Plain', description: '   ' });
    await t.advance(2);
    const rich = await save(u, { url: 'http://www.lean.example/a/', title: 'Rich', description: 'About it', note: 'Mine', tags: ['b', 'a'], collectionId: col, isFavorite: true });
    await db.run('UPDATE bookmarks SET cover_image = ? WHERE id = ?', 'covers/rich.png', rich.id);

    const res = await u.api('GET', '/bookmarks/duplicates');
    const raw = (res.body as { data: { groups: { bookmarks: Record<string, unknown>[] }[] } }).data.groups[0]!.bookmarks;
    const fields = ['collectionId', 'createdAt', 'hasCover', 'hasDescription', 'id', 'isFavorite', 'note', 'tags', 'title', 'updatedAt', 'url'];
    expect(raw.map((b) => Object.keys(b).sort())).toEqual([fields, fields]);
    expect(dataOf(res, DuplicatesResult).groups).toEqual([
      {
        normalizedUrl: 'lean.example/a',
        bookmarks: [
          { id: plain.id, url: 'https://lean.example/a', title: 'Plain', note: '', tags: [], collectionId: null, isFavorite: false, hasDescription: false, hasCover: false, createdAt: plain.createdAt, updatedAt: plain.updatedAt },
          { id: rich.id, url: 'http://www.lean.example/a/', title: 'Rich', note: 'Mine', tags: ['a', 'b'], collectionId: col, isFavorite: true, hasDescription: true, hasCover: true, createdAt: rich.createdAt, updatedAt: rich.updatedAt },
        ],
      },
    ]);
  });

  it('answers no groups for a library without duplicates', async () => {
    const u = await t.user();
    await save(u, { url: 'https://unique.example/' });
    expect(dataOf(await u.api('GET', '/bookmarks/duplicates'), DuplicatesResult)).toEqual({ groups: [] });
  });
});
