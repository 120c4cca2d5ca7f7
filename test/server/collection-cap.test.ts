import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Collection, MAX_COLLECTIONS_PER_USER } from '../../lib/api/collections.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { type RawDb, openRawDb } from '../support/raw-db.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { count } from './collections-tags-fixtures.ts';

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
