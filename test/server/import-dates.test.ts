import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookmarkPage } from '../../lib/api/bookmarks.ts';
import { dataOf } from '../support/expect.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { importFile } from './jobs-fixtures.ts';

/** Dates from files are the user's data: odd ones may not break listing or paging. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ raiseLimits: true });
});
afterAll(() => t.close());

const entry = (url: string, createdAt: string | number) => ({ url, title: url, createdAt });

describe('imported dates', () => {
  it('drops a date no Date can hold, keeps the bookmark, and the library still lists', async () => {
    const u = await t.user();
    const file = JSON.stringify({ version: 1, bookmarks: [entry('https://a.example/huge', 1e16), entry('https://a.example/fine', '2020-05-01T00:00:00Z')] });
    const job = await importFile(t, u, file);
    expect(job).toMatchObject({ status: 'completed', result: { imported: 2 } });
    const page = dataOf(await u.api('GET', '/bookmarks?limit=10'), BookmarkPage);
    expect(page.data.map((b) => b.url).sort()).toEqual(['https://a.example/fine', 'https://a.example/huge']);
    expect(page.data.find((b) => b.url.endsWith('fine'))?.createdAt).toBe('2020-05-01T00:00:00.000Z');
  });

  it('pages exactly once through bookmarks older than 1970, in every order', async () => {
    const u = await t.user();
    const dates = ['1960-01-01T00:00:00Z', '1961-06-01T00:00:00Z', '1969-12-31T23:59:59Z', '1999-01-01T00:00:00Z', '2021-01-01T00:00:00Z'];
    const file = JSON.stringify({ version: 1, bookmarks: dates.map((d, i) => entry(`https://old.example/${i}`, d)) });
    expect(await importFile(t, u, file)).toMatchObject({ status: 'completed', result: { imported: 5 } });
    for (const sortBy of ['newest', 'oldest', 'title', 'domain']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `/bookmarks?limit=2&sortBy=${sortBy}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = dataOf(await u.api('GET', query), BookmarkPage);
        seen.push(...page.data.map((b) => b.url));
        cursor = page.cursor;
      } while (cursor);
      expect(seen.sort(), sortBy).toEqual(dates.map((_, i) => `https://old.example/${i}`).sort());
    }
  });
});
