import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Bookmark, BookmarkPage, DeletedResult } from '../../lib/api/bookmarks.ts';
import { Evaluation } from '../../lib/api/smart-folders.ts';
import { decodeCursor, encodeCursor } from '../../server/bookmarks/cursor.ts';
import { decodeCursor as decodeScanCursor, encodeCursor as encodeScanCursor } from '../../server/smart-folders/cursor.ts';
import { dataOf } from '../support/expect.ts';
import { type TestServer, type TestUser, onPostgresProject } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { allBookmarks, importFile } from './jobs-fixtures.ts';
import { createFolder, insertBookmarksRaw } from './smart-folders-fixtures.ts';

/** Dates from files are the user's data and an attacker's tool: a hostile one is refused, and no stored one breaks a read. */
let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started), { raiseLimits: true });

const DAY = 86_400_000;

describe('a hostile date in an import file', () => {
  it('is a skipped row with its reason, and the rest of the file imports and lists', async () => {
    const u = await t.user();
    const html = [
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
      '<DL><p>',
      '<DT><A HREF="https://hostile.example/exact" DATA-CREATED="9999999999999999">exact</A>',
      '<DT><A HREF="https://hostile.example/browser" ADD_DATE="9999999999999999">browser</A>',
      '<DT><A HREF="https://hostile.example/old" ADD_DATE="315532800">1980</A>',
      '<DT><A HREF="https://fine.example/" ADD_DATE="1600000000">fine</A>',
      '</DL><p>',
    ].join('\n');
    const job = await importFile(t, u, html);
    const range = `between 1990-01-01 and ${new Date(t.server.deps.clock.now() + DAY).toISOString().slice(0, 10)}`;
    expect(job).toMatchObject({ status: 'completed', result: { imported: 1, skipped: 3, duplicates: 0 } });
    expect(job.skippedReasons).toEqual([
      { line: 3, reason: `https://hostile.example/exact: DATA-CREATED "9999999999999999" is not a date ${range}` },
      { line: 4, reason: `https://hostile.example/browser: ADD_DATE "9999999999999999" is not a date ${range}` },
      { line: 5, reason: `https://hostile.example/old: ADD_DATE "315532800" is not a date ${range}` },
    ]);
    expect(job.skippedCounts).toEqual([{ reason: `a date not ${range}`, count: 3 }]);
    const listed = await allBookmarks(u.api);
    expect(listed.map((b) => [b.url, b.createdAt])).toEqual([['https://fine.example/', '2020-09-13T12:26:40.000Z']]);
  });

  it('is refused in every format that carries dates', async () => {
    const u = await t.user();
    const files = [
      JSON.stringify({ version: 1, bookmarks: [{ url: 'https://j.example/', createdAt: 1e16 }] }),
      'url,title,description,note,type,favorite,tags,collection,created\nhttps://c.example/,,,,,,,,+275760-09-13T00:00:00.000Z\n',
      'title,url,time_added,tags,status\nP,https://p.example/,9999999999999999,,unread\n',
      '<!DOCTYPE html><title>Pocket Export</title><h1>Unread</h1><ul><li><a href="https://ph.example/" time_added="99999999999" tags="">x</a></li></ul>',
      JSON.stringify({ roots: { bookmark_bar: { type: 'folder', name: 'Bar', children: [{ type: 'url', name: 'x', url: 'https://ch.example/', date_added: '99999999999999999999' }] } } }),
      JSON.stringify({ type: 'text/x-moz-place-container', root: 'placesRoot', children: [{ type: 'text/x-moz-place', uri: 'https://ff.example/', dateAdded: 1e22 }] }),
    ];
    for (const file of files) {
      const job = await importFile(t, u, file);
      expect(job, file).toMatchObject({ status: 'completed', result: { imported: 0, skipped: 1 } });
      expect(job.skippedReasons?.[0]?.reason, file).toMatch(/ is not a date between 1990-01-01 and /);
    }
  });
});

describe('dates through the API', () => {
  it('PATCH takes the date fields of a bookmark sent back as it was read and ignores them, whatever they hold', async () => {
    const u = await t.user();
    const saved = dataOf(await u.api('POST', '/bookmarks', { body: { url: 'https://patched.example/' } }), Bookmark, 201);
    const hostile = { createdAt: 1e16, updatedAt: 'soon', lastCheckedAt: -1e300, deletedAt: '+275760-09-14T00:00:00.000Z' };
    const patched = dataOf(await u.api('PATCH', `/bookmarks/${saved.id}`, { body: { ...hostile, title: 'Patched' } }), Bookmark);
    expect(patched).toMatchObject({ title: 'Patched', createdAt: saved.createdAt, lastCheckedAt: saved.lastCheckedAt, deletedAt: null });
  });
});

/**
 * What an import wrote before dates were checked: still in old databases. A fraction of a
 * millisecond (1.5) only SQLite's columns could hold; PostgreSQL's BIGINT columns hold 1, which
 * shows the same.
 */
const STORED = [1e16, -1e16, 8.64e15 + 1, Date.UTC(1960, 0, 1), onPostgresProject ? 1 : 1.5, 1600000000000, 1600000000000];

describe('a stored date no import may write any more', () => {
  async function userWithStoredDates(): Promise<{ u: TestUser; ids: string[] }> {
    const u = await t.user();
    return { u, ids: await insertBookmarksRaw(t, db, u.userId, STORED.map((createdAt) => ({ createdAt }))) };
  }

  it('shows as the nearest date a Date can hold, in every field', async () => {
    const { u, ids } = await userWithStoredDates();
    const shown = dataOf(await u.api('GET', `/bookmarks/${ids[0]}`), Bookmark);
    expect([shown.createdAt, shown.updatedAt, shown.lastCheckedAt]).toEqual(Array(3).fill('+275760-09-13T00:00:00.000Z'));
    expect(dataOf(await u.api('GET', `/bookmarks/${ids[1]}`), Bookmark).createdAt).toBe('-271821-04-20T00:00:00.000Z');
    expect(dataOf(await u.api('GET', `/bookmarks/${ids[4]}`), Bookmark).createdAt).toBe('1970-01-01T00:00:00.001Z');
  });

  it.each(['newest', 'oldest', 'title', 'domain'])('pages exactly once through every row, sortBy=%s', async (sortBy) => {
    const { u, ids } = await userWithStoredDates();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/bookmarks?limit=1&sortBy=${sortBy}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = dataOf(await u.api('GET', query), BookmarkPage);
      seen.push(...page.data.map((b) => b.id));
      cursor = page.cursor;
    } while (cursor !== null && seen.length <= ids.length);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('can be searched, saved again, evaluated, trashed, paged in the trash and removed', async () => {
    const { u, ids } = await userWithStoredDates();
    const found = dataOf(await u.api('GET', '/bookmarks/search?q=Title'), z.array(Bookmark));
    expect(found.map((b) => b.id).sort()).toEqual([...ids].sort());

    const hostile = dataOf(await u.api('GET', `/bookmarks/${ids[0]}`), Bookmark);
    const again = await u.api('POST', '/bookmarks', { body: { url: hostile.url } });
    expect(again.status, JSON.stringify(again.body)).toBeLessThan(300);

    const folder = await createFolder(u, { match: 'all', conditions: [{ field: 'createdAfter', operator: 'equals', value: '0' }] });
    const evaluated = dataOf(await u.api('GET', `/smart-folders/${folder.id}/bookmarks`), Evaluation);
    expect(evaluated.bookmarks.map((b) => b.id)).toContain(ids[0]);

    for (const id of ids) expect((await u.api('DELETE', `/bookmarks/${id}`)).status).toBe(200);
    const trashed: string[] = [];
    let cursor: string | null = null;
    do {
      const page: z.infer<typeof BookmarkPage> = dataOf(
        await u.api('GET', `/bookmarks/trash?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        BookmarkPage,
      );
      trashed.push(...page.data.map((b) => b.id));
      cursor = page.cursor;
    } while (cursor !== null && trashed.length <= ids.length);
    expect(trashed.sort()).toEqual([...ids].sort());
    for (const id of ids) expect(dataOf(await u.api('DELETE', `/bookmarks/${id}/permanent`), DeletedResult)).toEqual({ id, deleted: true });
  });
});

describe('cursors', () => {
  it.each([1e16, -1e16, 1e300, 1.5, -0.25, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 2])('carry the stored time %s', (time) => {
    const key = { order: 'newest' as const, seq: 7, time, text: '' };
    expect(decodeCursor(encodeCursor(key), 'newest')).toEqual(key);
  });

  it.each([1e16, -1e16, 1.5])('of a smart folder scan carry the stored time %s', (createdAt) => {
    const state = { kind: 'scan' as const, createdAt, seq: 3, scanned: 10, returned: 2 };
    expect(decodeScanCursor(encodeScanCursor(state, 'key'), 'key')).toEqual(state);
  });
});
