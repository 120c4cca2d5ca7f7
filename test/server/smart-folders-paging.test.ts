import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect.ts';
import type { RawDb } from '../support/raw-db.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import {
  type RawBookmark,
  type Rules,
  createFolder,
  evaluate,
  evaluateAll,
  evaluateRaw,
  ids,
  insertBookmarksRaw,
  openRawDbOf,
  setRules,
} from './smart-folders-fixtures.ts';

let t: TestServer;
let db: RawDb;
beforeAll(async () => {
  t = await startTestServer();
  db = openRawDbOf(t);
});
afterAll(async () => {
  await db?.close();
  await t?.close();
});

const BASE = Date.UTC(2024, 0, 1);
const rule = (field: string, operator: string, value: string) => ({ field, operator, value });
const all = (...conditions: Rules['conditions']): Rules => ({ match: 'all', conditions });

describe('exact-tag evaluation', () => {
  let u: TestUser;
  let active: string[];

  beforeAll(async () => {
    u = await t.user();
    // 200 trashed memberships first, then 60 active ones; older bookmarks are tagged first,
    // so membership order is the reverse of newest first.
    const rows: RawBookmark[] = Array.from({ length: 260 }, (_, i) => ({
      createdAt: BASE + i,
      tags: ['Paged', i % 2 === 0 ? 'even' : 'odd'],
      trashed: i < 200,
    }));
    active = (await insertBookmarksRaw(t, db, u.userId, rows)).slice(200);
  });

  it('follows a cursor past a page of only trashed memberships', async () => {
    const folder = await createFolder(u, all(rule('tag', 'equals', 'paged')));
    const first = await evaluate(t, u, folder.id);
    expect(first).toMatchObject({ bookmarks: [], truncated: false });
    expect(first.continueCursor).toEqual(expect.any(String));
    const second = await evaluate(t, u, folder.id, first.continueCursor);
    expect(ids(second)).toEqual(active);
    expect(second).toMatchObject({ continueCursor: null, truncated: false });
  });

  it('tests every condition on the walked memberships', async () => {
    const folder = await createFolder(u, all(rule('tag', 'equals', 'Paged'), rule('tag', 'equals', 'even')));
    const pages = await evaluateAll(t, u, folder.id);
    expect(pages).toHaveLength(2);
    expect(ids(pages)).toEqual(active.filter((_, i) => i % 2 === 0));
  });

  it('refuses its cursor once the rules change (409), and starts again without one', async () => {
    const folder = await createFolder(u, all(rule('tag', 'equals', 'paged')));
    const { continueCursor } = await evaluate(t, u, folder.id);

    // A change of name, with the same rules sent again, keeps the cursor good.
    expect((await u.api('PATCH', `/smart-folders/${folder.id}`, { body: { name: 'Renamed', rules: folder.rules } })).status).toBe(200);
    expect((await evaluateRaw(t, u, folder.id, continueCursor)).status).toBe(200);

    await setRules(u, folder.id, all(rule('tag', 'equals', 'paged'), rule('type', 'equals', 'link')));
    const stale = await evaluateRaw(t, u, folder.id, continueCursor);
    expect(stale.status).toBe(409);
    expect(expectError(stale, 409, 'SMART_FOLDER_CURSOR_INVALID')).toMatch(/start again without a cursor/);

    expect(ids(await evaluateAll(t, u, folder.id))).toEqual(active);
  });

  it('refuses its cursor once the rules no longer name an exact tag', async () => {
    const folder = await createFolder(u, all(rule('tag', 'equals', 'paged')));
    const { continueCursor } = await evaluate(t, u, folder.id);
    await setRules(u, folder.id, all(rule('tag', 'contains', 'paged')));
    expectError(await evaluateRaw(t, u, folder.id, continueCursor), 409, 'SMART_FOLDER_CURSOR_INVALID');
  });

  it('refuses its cursor once the tag it walks is renamed', async () => {
    const other = await t.user();
    await insertBookmarksRaw(t, db, other.userId, Array.from({ length: 210 }, (_, i) => ({ createdAt: BASE + i, tags: ['walked'] })));
    const folder = await createFolder(other, all(rule('tag', 'equals', 'walked')));
    const first = await evaluate(t, other, folder.id);
    expect(first.bookmarks).toHaveLength(200);
    await db.run("UPDATE tags SET name = 'gone', name_key = 'gone' WHERE user_id = ? AND name_key = 'walked'", other.userId);
    await db.run("INSERT INTO tags (id, user_id, name, name_key, created_at) VALUES ('tag_new_walked', ?, 'walked', 'walked', 0)", other.userId);
    expectError(await evaluateRaw(t, other, folder.id, first.continueCursor), 409, 'SMART_FOLDER_CURSOR_INVALID');
    expect(await evaluate(t, other, folder.id)).toEqual({ bookmarks: [], continueCursor: null, truncated: false });
  });

  it('returns at most 500 bookmarks over the walk, then says truncated', async () => {
    const big = await t.user();
    await insertBookmarksRaw(t, db, big.userId, Array.from({ length: 650 }, (_, i) => ({ createdAt: BASE + i, tags: ['many'] })));
    const folder = await createFolder(big, all(rule('tag', 'equals', 'many')));
    const pages = await evaluateAll(t, big, folder.id);
    expect(pages.map((p) => [p.bookmarks.length, p.truncated])).toEqual([
      [200, false],
      [200, false],
      [100, true],
    ]);
    expect(new Set(ids(pages)).size).toBe(500);
  });
});

describe('cursors', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await t.user();
    await insertBookmarksRaw(t, db, u.userId, Array.from({ length: 450 }, (_, i) => ({ createdAt: BASE + i, domain: 'a.com', tags: ['t'] })));
  });

  it('keeps a scan cursor good after a rule change, continuing from its position', async () => {
    const folder = await createFolder(u, all(rule('domain', 'equals', 'a.com')));
    const first = await evaluate(t, u, folder.id);
    expect(first.bookmarks).toHaveLength(200);
    await setRules(u, folder.id, all(rule('domain', 'contains', 'a.c'), rule('clickCount', 'lte', '0')));
    const second = await evaluate(t, u, folder.id, first.continueCursor);
    expect(second.bookmarks).toHaveLength(200);
    const times = [...first.bookmarks, ...second.bookmarks].map((b) => Date.parse(b.createdAt));
    expect(times).toEqual(Array.from({ length: 400 }, (_, i) => BASE + 449 - i));
  });

  it('refuses a scan cursor once the folder walks an exact tag (409)', async () => {
    const folder = await createFolder(u, all(rule('domain', 'equals', 'a.com')));
    const { continueCursor } = await evaluate(t, u, folder.id);
    await setRules(u, folder.id, all(rule('tag', 'equals', 't')));
    expectError(await evaluateRaw(t, u, folder.id, continueCursor), 409, 'SMART_FOLDER_CURSOR_INVALID');
  });

  it('refuses a malformed, altered or foreign cursor with 400', async () => {
    const folder = await createFolder(u, all(rule('domain', 'equals', 'a.com')));
    const other = await createFolder(u, all(rule('domain', 'equals', 'a.com')));
    const { continueCursor } = await evaluate(t, u, folder.id);
    const cursor = continueCursor!;
    const [body, signature] = cursor.split('.') as [string, string];
    const state = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${Buffer.from(JSON.stringify({ ...state, scanned: 0, returned: 0 })).toString('base64url')}.${signature}`;
    for (const bad of ['abc', `${cursor}x`, forged, `${body}.`, '.'.repeat(5)]) {
      expect(expectError(await evaluateRaw(t, u, folder.id, bad), 400, 'VALIDATION_ERROR')).toMatch(/^Invalid query: cursor:|^cursor:/);
    }
    expectError(await evaluateRaw(t, u, other.id, cursor), 400, 'VALIDATION_ERROR');
    expect((await evaluateRaw(t, u, folder.id, cursor)).status).toBe(200);
  });
});

describe('scan limits over a library of 5,100 bookmarks', () => {
  let u: TestUser;
  const SIZE = 5_100;

  beforeAll(async () => {
    u = await t.user();
    // Index i: newer with i. The oldest 100 are the only ones on rare.com and the only ones clicked;
    // every 20th carries the tag "sparse-match".
    await insertBookmarksRaw(
      t,
      db,
      u.userId,
      Array.from({ length: SIZE }, (_, i) => ({
        createdAt: BASE + i * 1_000,
        domain: i < 100 ? 'rare.com' : 'common.com',
        clickCount: i < 100 ? 1 : 0,
        tags: i % 20 === 0 ? ['sparse-match'] : [],
      })),
    );
  });

  it('returns at most 500 bookmarks over an evaluation, in pages of 200', async () => {
    const folder = await createFolder(u, all());
    const pages = await evaluateAll(t, u, folder.id);
    expect(pages.map((p) => [p.bookmarks.length, p.truncated])).toEqual([
      [200, false],
      [200, false],
      [100, true],
    ]);
    const times = pages.flatMap((p) => p.bookmarks.map((b) => Date.parse(b.createdAt)));
    expect(times).toEqual(Array.from({ length: 500 }, (_, i) => BASE + (SIZE - 1 - i) * 1_000));
  });

  it('stops after examining 5,000 bookmarks and says truncated', async () => {
    // Only the 100 oldest match, and they lie beyond the newest 5,000.
    const folder = await createFolder(u, all(rule('clickCount', 'gte', '1')));
    expect(await evaluate(t, u, folder.id)).toEqual({ bookmarks: [], continueCursor: null, truncated: true });
  });

  it('counts the 5,000 across pages', async () => {
    // The newest 5,000 hold 250 of the 255 tagged bookmarks.
    const folder = await createFolder(u, all(rule('tag', 'contains', 'SPARSE')));
    const pages = await evaluateAll(t, u, folder.id);
    expect(pages.map((p) => [p.bookmarks.length, p.truncated])).toEqual([
      [200, false],
      [50, true],
    ]);
  });

  it('lets an index do the narrowing: a domain beyond the newest 5,000 is found whole', async () => {
    const folder = await createFolder(u, all(rule('domain', 'equals', 'rare.com'), rule('clickCount', 'gte', '1')));
    const page = await evaluate(t, u, folder.id);
    expect(page).toMatchObject({ continueCursor: null, truncated: false });
    expect(page.bookmarks).toHaveLength(100);
  });

  it('narrows by date range before counting', async () => {
    const folder = await createFolder(u, all(rule('createdBefore', 'equals', String(BASE + 100 * 1_000)), rule('clickCount', 'gte', '1')));
    const page = await evaluate(t, u, folder.id);
    expect(page).toMatchObject({ continueCursor: null, truncated: false });
    expect(page.bookmarks).toHaveLength(100);
  });

  it('does not count trashed bookmarks toward the scan', async () => {
    const other = await t.user();
    await insertBookmarksRaw(t, db, other.userId, [
      ...Array.from({ length: 10 }, (_, i) => ({ createdAt: BASE + i, clickCount: 1 })),
      ...Array.from({ length: 5_000 }, (_, i) => ({ createdAt: BASE + 100 + i, trashed: true, clickCount: 1 })),
    ]);
    const folder = await createFolder(other, all(rule('clickCount', 'gte', '1')));
    const page = await evaluate(t, other, folder.id);
    expect(page).toMatchObject({ continueCursor: null, truncated: false });
    expect(page.bookmarks).toHaveLength(10);
  });
});
