import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Collection, MAX_COLLECTIONS_PER_USER } from '../../lib/api/collections.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { type RawDb, openRawDb } from '../support/raw-db.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { count } from './collections-tags-fixtures.ts';
import { allBookmarks, collectionPaths, importFile } from './jobs-fixtures.ts';

let t: TestServer;
let db: RawDb;
beforeAll(async () => {
  t = await startTestServer({ raiseLimits: true });
  db = openRawDb({ dataDir: t.dataDir, databaseUrl: t.server.deps.config.databaseUrl });
});
afterAll(async () => {
  await db.close();
  await t.close();
});

/** n root collections written straight into the database (the first one trashed), as the API would leave them. */
async function seed(u: TestUser, n: number): Promise<void> {
  await db.run(
    `INSERT INTO collections (id, user_id, name, share_slug, sort_order, created_at, updated_at, deleted_at, trash_root)
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
     SELECT 'col_' || ? || '_' || i, ?, 'Folder ' || i, 'slug_' || ? || '_' || i, i - 1, 0, 0,
       CASE WHEN i = 1 THEN 1 END, CASE WHEN i = 1 THEN 'col_' || ? || '_1' END
     FROM n`,
    u.userId, u.userId, u.userId, u.userId,
  );
}

const collectionsOf = (u: TestUser) => count(db, 'SELECT COUNT(*) AS n FROM collections WHERE user_id = ?', u.userId);

describe(`a user has at most ${MAX_COLLECTIONS_PER_USER} collections`, () => {
  it('creates up to the cap, trashed ones counted, then refuses with a clear message and creates nothing', async () => {
    const u = await t.user();
    await seed(u, MAX_COLLECTIONS_PER_USER - 2);
    const parent = dataOf(await u.api('POST', '/collections', { body: { name: 'Almost full' } }), Collection, 201);
    const last = dataOf(await u.api('POST', '/collections', { body: { name: 'Last', parentId: parent.id } }), Collection, 201);
    expect(last).toMatchObject({ parentId: parent.id, depth: 1 });
    expect(await collectionsOf(u)).toBe(MAX_COLLECTIONS_PER_USER);

    for (const body of [{ name: 'One too many' }, { name: 'Nested', parentId: last.id }]) {
      const message = expectError(await u.api('POST', '/collections', { body }), 409, 'CONFLICT');
      expect(message).toBe(
        `the account has ${MAX_COLLECTIONS_PER_USER} collections, trashed ones included, of at most ${MAX_COLLECTIONS_PER_USER}; ` +
          'delete collections (and empty them from the trash) first',
      );
    }
    expect(await collectionsOf(u)).toBe(MAX_COLLECTIONS_PER_USER);

    // Moves and restores never add a collection: they go on working at the cap.
    expect(dataOf(await u.api('PATCH', `/collections/${last.id}`, { body: { parentId: null } }), Collection)).toMatchObject({ parentId: null, depth: 0 });

    // Another user is not concerned.
    const other = await t.user();
    expect((await other.api('POST', '/collections', { body: { name: 'Mine' } })).status).toBe(201);
  });

  it('reads one collection by id with its depth, trashed or not', async () => {
    const u = await t.user();
    let parentId: string | null = null;
    const made: Collection[] = [];
    for (let depth = 0; depth < 4; depth++) {
      const c: Collection = dataOf(await u.api('POST', '/collections', { body: { name: `Level ${depth}`, parentId } }), Collection, 201);
      made.push(c);
      parentId = c.id;
    }
    for (const [depth, c] of made.entries()) expect(dataOf(await u.api('GET', `/collections/${c.id}`), Collection)).toMatchObject({ id: c.id, depth });
    expect(dataOf(await u.api('GET', '/collections'), z.array(Collection)).map((c) => c.depth)).toEqual([0, 1, 2, 3]);
    expectError(await (await t.user()).api('GET', `/collections/${made[3]!.id}`), 404, 'NOT_FOUND');
    expect((await u.api('DELETE', `/collections/${made[2]!.id}`)).status).toBe(200);
    expect(dataOf(await u.api('GET', `/collections/${made[3]!.id}`), Collection)).toMatchObject({ depth: 3, deletedAt: expect.any(String) });
  });
});

/** Where each imported bookmark landed: its folder's path ([] for Unsorted), by URL. */
async function foldersOf(u: TestUser): Promise<Map<string, string[]>> {
  const { paths } = await collectionPaths(u.api);
  return new Map((await allBookmarks(u.api)).map((b) => [b.url, b.collectionId === null ? [] : paths.get(b.collectionId)!]));
}

const folder = (name: string, inside: string): string => `<DT><H3>${name}</H3><DL>${inside}</DL>`;
const link = (url: string): string => `<DT><A HREF="${url}">${url}</A>`;

describe('an import stops making folders at the cap', () => {
  it('files the bookmarks of the folders it did not make into the nearest folder above them, or Unsorted, and says how many', async () => {
    const u = await t.user();
    await seed(u, MAX_COLLECTIONS_PER_USER - 3);
    dataOf(await u.api('POST', '/collections', { body: { name: 'Keep' } }), Collection, 201);
    // Room for two more: Keep/A and Keep/A/B are made; Keep/A/B/C, Keep/A/D, Other and Other/Deep are not.
    const file =
      '<!DOCTYPE NETSCAPE-Bookmark-file-1><DL>' +
      folder('Keep', folder('A', folder('B', folder('C', link('https://c.example/'))) + folder('D', link('https://d.example/'))) + link('https://keep.example/')) +
      folder('Other', folder('Deep', link('https://deep.example/'))) +
      '</DL>';
    const job = await importFile(t, u, file);
    expect(job).toMatchObject({ status: 'completed', result: { imported: 4, skipped: 0, duplicates: 0 }, collectionsCapped: 4, skippedCounts: [] });
    expect(await collectionsOf(u)).toBe(MAX_COLLECTIONS_PER_USER);
    expect(Object.fromEntries(await foldersOf(u))).toEqual({
      'https://c.example/': ['Keep', 'A', 'B'],
      'https://d.example/': ['Keep', 'A'],
      'https://keep.example/': ['Keep'],
      'https://deep.example/': [],
    });

    // Imported again at the cap: nothing new is made, the folders that exist are used, every URL a duplicate.
    const again = await importFile(t, u, file);
    expect(again).toMatchObject({ status: 'completed', result: { imported: 0, skipped: 0, duplicates: 4 }, collectionsCapped: 4 });
    expect(await collectionsOf(u)).toBe(MAX_COLLECTIONS_PER_USER);
  });

  it(`a file of more than ${MAX_COLLECTIONS_PER_USER} folders makes ${MAX_COLLECTIONS_PER_USER} of them`, async () => {
    const u = await t.user();
    const over = 5;
    const file =
      '<!DOCTYPE NETSCAPE-Bookmark-file-1><DL>' +
      Array.from({ length: MAX_COLLECTIONS_PER_USER + over }, (_, i) => folder(`F${i}`, i < MAX_COLLECTIONS_PER_USER - 1 ? '' : link(`https://f${i}.example/`))).join('') +
      '</DL>';
    const job = await importFile(t, u, file);
    expect(job).toMatchObject({ status: 'completed', result: { imported: over + 1, skipped: 0, duplicates: 0 }, collectionsCapped: over });
    expect(await collectionsOf(u)).toBe(MAX_COLLECTIONS_PER_USER);
    const folders = await foldersOf(u);
    expect(folders.get(`https://f${MAX_COLLECTIONS_PER_USER - 1}.example/`)).toEqual([`F${MAX_COLLECTIONS_PER_USER - 1}`]);
    for (let i = MAX_COLLECTIONS_PER_USER; i < MAX_COLLECTIONS_PER_USER + over; i++) expect(folders.get(`https://f${i}.example/`)).toEqual([]);
    // The account is full for the API too.
    expectError(await u.api('POST', '/collections', { body: { name: 'More' } }), 409, 'CONFLICT');
    // About 7 s on SQLite and 18 s on PostgreSQL on the shared 2-core machine.
  }, 60_000);
});
