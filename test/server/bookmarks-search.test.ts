import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Bookmark, BookmarkPage } from '../../lib/api/bookmarks.ts';
import { openPostgres } from '../../server/db/postgres/connect.ts';
import { PgBookmarkSearch } from '../../server/store/postgres/bookmark-search.ts';
import { SHORT_QUERY_SCAN } from '../../server/store/shared/search-terms.ts';
import { SEARCH_WALK_ROWS } from '../../server/store/sqlite/bookmark-search.ts';
import { dataOf } from '../support/expect.ts';
import { type TestServer, type TestUser, onPostgresProject } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { save } from './bookmarks-fixtures.ts';
import { count } from './collections-tags-fixtures.ts';
import { insertBookmarksRaw } from './smart-folders-fixtures.ts';

let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started), { raiseLimits: true });

const found = async (u: TestUser, q: string, limit = 100): Promise<string[]> =>
  dataOf(await u.api('GET', `/bookmarks/search?q=${encodeURIComponent(q)}&limit=${limit}`), z.array(Bookmark)).map((b) => b.title);

/**
 * That the index holds exactly the text of the rows it covers: FTS5's own check on SQLite. On
 * PostgreSQL the indexes are expression indexes of the bookmarks table itself, kept by
 * PostgreSQL in the same statement; what can go wrong is an index left invalid.
 */
const indexIsInStep = async (): Promise<void> => {
  if (!onPostgresProject) {
    await expect(db.run("INSERT INTO bookmarks_search (bookmarks_search, rank) VALUES ('integrity-check', 1)")).resolves.toBeTypeOf('number');
  } else {
    const indexes = await db.all("SELECT indisvalid, indisready FROM pg_index WHERE indexrelid::regclass::text LIKE 'bookmarks_search_%'");
    expect(indexes).toEqual(Array.from({ length: 3 }, () => ({ indisvalid: true, indisready: true })));
  }
};

/**
 * Index entries of an ASCII word left, whoever's bookmark: FTS5's rows on SQLite; on PostgreSQL
 * the indexes hold an entry for each row of bookmarks, so the rows whose URL has the word.
 */
const indexedWithUrl = (word: string): Promise<number> =>
  !onPostgresProject
    ? count(db, 'SELECT COUNT(*) AS n FROM bookmarks_search WHERE bookmarks_search MATCH ?', `"${word}"`)
    : count(db, 'SELECT COUNT(*) AS n FROM bookmarks WHERE lower(url) LIKE ?', `%${word}%`);

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
    expect(await indexedWithUrl('okapi')).toBe(0);
    await indexIsInStep();
  });

  it.skipIf(onPostgresProject)('answers from the index rather than by scanning the bookmarks (SQLite: the FTS5 table)', async () => {
    const plan = await db.all<{ detail: string }>("EXPLAIN QUERY PLAN SELECT rowid FROM bookmarks_search WHERE bookmarks_search MATCH '\"abc\"'");
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/VIRTUAL TABLE INDEX/);
  });

  it.runIf(onPostgresProject)('answers from the index rather than by scanning the bookmarks (PostgreSQL: the pg_trgm indexes)', async () => {
    const u = await t.user();
    await insertBookmarksRaw(t, db, u.userId, Array.from({ length: 3_000 }, (_, i) => ({ createdAt: 1_700_000_000_000 + i })));
    // What autovacuum does after a bulk load: GIN's pending list merged, statistics taken.
    await db.run('VACUUM ANALYZE bookmarks');
    const pg = await openPostgres(t.server.deps.config.databaseUrl!);
    try {
      const { text, params } = new PgBookmarkSearch(pg).statement(u.userId, 'abc', 50);
      const plan = (await pg.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params)).map((r) => r['QUERY PLAN']).join('\n');
      for (const field of ['title', 'description', 'url']) expect(plan).toMatch(new RegExp(`Bitmap Index Scan on bookmarks_search_${field}`));
      expect(plan).not.toMatch(/Seq Scan on bookmarks/);
    } finally {
      await pg.close();
    }
  });

  it(`looks through the newest ${SHORT_QUERY_SCAN} bookmarks for a query of one or two characters`, async () => {
    const u = await t.user();
    const oldest = await save(u, { url: 'https://short.example/old', title: 'Ωmega', description: '' });
    await insertBookmarksRaw(t, db, u.userId, Array.from({ length: SHORT_QUERY_SCAN }, (_, i) => ({ createdAt: Date.parse(oldest.createdAt) + 1 + i })));
    expect(await found(u, 'ω')).toEqual([]);
    expect(await found(u, 'ωm')).toEqual([]);
    // Three characters use the index, which reaches every bookmark.
    expect(await found(u, 'ωme')).toEqual(['Ωmega']);
    // A word in more than 5,000 bookmarks is met by walking the newest first: the same answer as sorting.
    const newest = dataOf(await u.api('GET', '/bookmarks?limit=100&sortBy=newest'), BookmarkPage).data.map((b) => b.title);
    expect(await found(u, 'TITLE bm_')).toEqual(newest);
  });
});

/**
 * SQLite meets a word with more than 5,000 matches by testing the user's newest bookmarks one by
 * one, folded as FTS5 folds (server/store/sqlite/trigram-fold.ts), and answers from the index only
 * when that walk leaves the page unfilled. Another user's bookmarks carry each word below, so that
 * every one of them has that many matches.
 */
describe.skipIf(onPostgresProject)('GET /bookmarks/search of a word in more than 5,000 bookmarks (SQLite)', () => {
  const CARRIER = 'ΣΟΦΟΣ İstanbul istanbul 𐐀x Straße edgeword x\ud800yz boundaryword';
  const MATCHES_OF_OTHERS = 5_001;
  const start = 1_700_000_000_000;

  /** Bookmarks of the user, the last one the newest, with these titles where not null; their ids in that order. */
  async function titled(u: TestUser, titles: (string | null)[]): Promise<string[]> {
    const ids = await insertBookmarksRaw(t, db, u.userId, titles.map((_, i) => ({ createdAt: start + i })));
    for (const [i, id] of ids.entries()) if (titles[i] !== null) await db.run('UPDATE bookmarks SET title = ? WHERE id = ?', titles[i], id);
    return ids;
  }

  /**
   * Takes bookmarks out of the search index, or puts them back, without touching the bookmarks. The server's own
   * writes reach the index only through the bookmarks, which move their user's data version (the read cache's key);
   * this edit does not, so it moves the version itself, or the next search would be answered from the cache.
   */
  async function index(action: 'remove' | 'restore', ids: string[]): Promise<void> {
    const list = ids.map(() => '?').join(', ');
    await db.run(
      action === 'remove'
        ? `INSERT INTO bookmarks_search (bookmarks_search, rowid, title, description, url)
           SELECT 'delete', seq, title, description, url FROM bookmarks WHERE id IN (${list})`
        : `INSERT INTO bookmarks_search (rowid, title, description, url)
           SELECT seq, title, description, url FROM bookmarks WHERE id IN (${list})`,
      ...ids,
    );
    await db.run(`UPDATE data_versions SET version = version + 1 WHERE user_id IN (SELECT user_id FROM bookmarks WHERE id IN (${list}))`, ...ids);
  }

  beforeAll(async () => {
    const others = await t.user();
    await insertBookmarksRaw(t, db, others.userId, Array.from({ length: MATCHES_OF_OTHERS }, (_, i) => ({ createdAt: start + i })));
    await db.run('UPDATE bookmarks SET title = ? WHERE user_id = ?', CARRIER, others.userId);
  });

  it('finds by walking exactly what the index finds, in any script and for any stored text', async () => {
    const u = await t.user();
    const ids = await titled(u, ['ΣΟΦΟΣ', 'σοφος λόγος', 'Σοφός', 'istanbul', 'İSTANBUL', '𐐨x', 'ed\u0000geword', 'x\ud800yz', 'STRAẞE']);
    const cases: [string, string[]][] = [
      // Final sigma folds to sigma, and accents are kept.
      ['σοφος', ['σοφος λόγος', 'ΣΟΦΟΣ']],
      ['σοφοσ', ['σοφος λόγος', 'ΣΟΦΟΣ']],
      // İ folds to nothing else (JavaScript's toLowerCase makes it i and a combining dot).
      ['İst', ['İSTANBUL']],
      ['ist', ['istanbul']],
      ['𐐀X', ['𐐨x']],
      ['straße', ['STRAẞE']],
      // FTS5 reads past U+0000.
      ['edgeword', ['ed\u0000geword']],
      // A lone surrogate is stored as bytes that FTS5 reads as one U+FFFD.
      ['x\ufffdy', ['x\ufffd\ufffd\ufffdyz']],
    ];
    // Out of the index, the user's bookmarks can only be found by the walk, which a full page shows.
    await index('remove', ids);
    try {
      for (const [q, titles] of cases) expect({ q, walked: await found(u, q, titles.length) }).toEqual({ q, walked: titles });
    } finally {
      await index('restore', ids);
    }
    // One more than the matches leaves the walk's page unfilled: the index answers.
    for (const [q, titles] of cases) expect({ q, indexed: await found(u, q, titles.length + 1) }).toEqual({ q, indexed: titles });
    await indexIsInStep();
  });

  it(`walks the newest ${SEARCH_WALK_ROWS} bookmarks, then answers from the index`, async () => {
    const u = await t.user();
    const titles = Array.from({ length: SEARCH_WALK_ROWS + 1 }, (): string | null => null);
    // The newest, the last the walk reaches and the first beyond it.
    const [beyond, last, newest] = [0, 1, SEARCH_WALK_ROWS];
    for (const i of [beyond, last, newest]) titles[i] = `boundaryword ${i}`;
    const ids = await titled(u, titles);
    const newestFirst = [newest, last, beyond].map((i) => titles[i]);
    expect(await found(u, 'BOUNDARYWORD', 3)).toEqual(newestFirst);

    // Left out of the index, the two older ones are found by the walk as long as it reaches them.
    const unindexed = [ids[last]!, ids[beyond]!];
    await index('remove', unindexed);
    try {
      expect(await found(u, 'boundaryword', 2)).toEqual(newestFirst.slice(0, 2));
      // The walk stops at its bound with two of three: the index, which has only the newest, answers.
      expect(await found(u, 'boundaryword', 3)).toEqual(newestFirst.slice(0, 1));
    } finally {
      await index('restore', unindexed);
    }
    expect(await found(u, 'boundaryword', 3)).toEqual(newestFirst);
    await indexIsInStep();
  });
});
