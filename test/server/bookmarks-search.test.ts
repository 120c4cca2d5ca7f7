import type Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Bookmark, BookmarkPage } from '../../lib/api/bookmarks.ts';
import { SHORT_QUERY_SCAN } from '../../server/store/shared/search-terms.ts';
import { dataOf } from '../support/expect.ts';
import type { TestServer, TestUser } from '../support/server.ts';
import { withServerAndDb } from '../support/server-per-file.ts';
import { save } from './bookmarks-fixtures.ts';
import { insertBookmarks } from './smart-folders-fixtures.ts';

let t: TestServer;
let db: Database.Database;
withServerAndDb((started) => ({ t, db } = started), { raiseLimits: true });

const found = async (u: TestUser, q: string): Promise<string[]> =>
  dataOf(await u.api('GET', `/bookmarks/search?q=${encodeURIComponent(q)}&limit=100`), z.array(Bookmark)).map((b) => b.title);

/** FTS5's own check that the index holds exactly the text of the rows it covers. */
const indexIsInStep = (): void => {
  expect(() => db.exec("INSERT INTO bookmarks_search (bookmarks_search, rank) VALUES ('integrity-check', 1)")).not.toThrow();
};

describe('GET /bookmarks/search in any script', () => {
  let u: TestUser;

  beforeAll(async () => {
    u = await t.user();
    await save(u, { url: 'https://ru.example/1', title: 'Новости Москвы', description: '' });
    await save(u, { url: 'https://el.example/1', title: 'Ελληνική ΓΛΩΣΣΑ', description: '' });
    await save(u, { url: 'https://fr.example/1', title: 'Crème BRÛLÉE', description: 'Café de Flore' });
    await save(u, { url: 'https://ja.example/1', title: '東京タワーの夜景', description: '' });
    await save(u, { url: 'https://xn--e1afmkfd.example/путь', title: 'Path', description: '' });
  });

  it('matches substrings of title, description and URL in any case', async () => {
    expect(await found(u, 'москв')).toEqual(['Новости Москвы']);
    expect(await found(u, 'НОВОСТИ')).toEqual(['Новости Москвы']);
    expect(await found(u, 'γλωσσα')).toEqual(['Ελληνική ΓΛΩΣΣΑ']);
    expect(await found(u, 'ΕΛΛΗΝ')).toEqual(['Ελληνική ΓΛΩΣΣΑ']);
    expect(await found(u, 'brûlée')).toEqual(['Crème BRÛLÉE']);
    expect(await found(u, 'CAFÉ')).toEqual(['Crème BRÛLÉE']);
    expect(await found(u, 'タワー')).toEqual(['東京タワーの夜景']);
    expect(await found(u, '京タワ')).toEqual(['東京タワーの夜景']);
  });

  it('keeps accents: an unaccented query does not match an accented word', async () => {
    expect(await found(u, 'brulee')).toEqual([]);
  });

  it('matches one or two characters in any script too', async () => {
    expect(await found(u, 'мо')).toEqual(['Новости Москвы']);
    expect(await found(u, 'Ω')).toEqual(['Ελληνική ΓΛΩΣΣΑ']);
    expect(await found(u, 'É')).toEqual(['Crème BRÛLÉE']);
    expect(await found(u, '東京')).toEqual(['東京タワーの夜景']);
    expect(await found(u, 'зз')).toEqual([]);
  });

  it('quotes and FTS5 syntax are plain characters', async () => {
    const v = await t.user();
    await save(v, { url: 'https://q.example/1', title: 'say "hi" NEAR me', description: '' });
    expect(await found(v, '"hi"')).toEqual(['say "hi" NEAR me']);
    expect(await found(v, 'hi" NEAR')).toEqual(['say "hi" NEAR me']);
    expect(await found(v, 'NEAR(')).toEqual([]);
    expect(await found(v, 'a*')).toEqual([]);
  });
});

describe('the search index', () => {
  it('follows edits, trash, restore, permanent delete, and never shows another user', async () => {
    const u = await t.user();
    const other = await t.user();
    await save(other, { url: 'https://other.example/1', title: 'Zebra crossing', description: '' });
    const b = await save(u, { url: 'https://idx.example/1', title: 'Zebra', description: '' });
    expect(await found(u, 'zebra')).toEqual(['Zebra']);

    await u.api('PATCH', `/bookmarks/${b.id}`, { body: { title: 'Giraffe', description: 'Tall Жираф' } });
    expect(await found(u, 'zebra')).toEqual([]);
    expect(await found(u, 'жираф')).toEqual(['Giraffe']);
    await u.api('PATCH', `/bookmarks/${b.id}`, { body: { url: 'https://idx.example/okapi' } });
    expect(await found(u, 'OKAPI')).toEqual(['Giraffe']);

    await u.api('DELETE', `/bookmarks/${b.id}`);
    expect(await found(u, 'giraffe')).toEqual([]);
    await u.api('POST', `/bookmarks/${b.id}/restore`);
    expect(await found(u, 'giraffe')).toEqual(['Giraffe']);
    await u.api('DELETE', `/bookmarks/${b.id}`);
    await u.api('DELETE', `/bookmarks/${b.id}/permanent`);
    expect(db.prepare('SELECT COUNT(*) AS n FROM bookmarks_search WHERE bookmarks_search MATCH ?').get('"okapi"')).toEqual({ n: 0 });
    indexIsInStep();
  });

  it('answers from the index rather than by scanning the bookmarks', () => {
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT rowid FROM bookmarks_search WHERE bookmarks_search MATCH '\"abc\"'").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/VIRTUAL TABLE INDEX/);
  });

  it(`looks through the newest ${SHORT_QUERY_SCAN} bookmarks for a query of one or two characters`, async () => {
    const u = await t.user();
    const oldest = await save(u, { url: 'https://short.example/old', title: 'Ωmega', description: '' });
    insertBookmarks(t, db, u.userId, Array.from({ length: SHORT_QUERY_SCAN }, (_, i) => ({ createdAt: Date.parse(oldest.createdAt) + 1 + i })));
    expect(await found(u, 'ω')).toEqual([]);
    expect(await found(u, 'ωm')).toEqual([]);
    // Three characters use the index, which reaches every bookmark.
    expect(await found(u, 'ωme')).toEqual(['Ωmega']);
    // A word in more than 5,000 bookmarks is met by walking the newest first: the same answer as sorting.
    const newest = dataOf(await u.api('GET', '/bookmarks?limit=100&sortBy=newest'), BookmarkPage).data.map((b) => b.title);
    expect(await found(u, 'TITLE bm_')).toEqual(newest);
  });
});
