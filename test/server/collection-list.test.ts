import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Collection } from '../../lib/api/collections.ts';
import { LIST_ON_THREAD_FROM } from '../../server/store/sqlite/collections.ts';
import { dataOf } from '../support/expect.ts';
import { type RawDb, openRawDb } from '../support/raw-db.ts';
import { type TestServer, type TestUser, startIsolatedTestServer } from '../support/server.ts';

/** Collections in chains this deep: parents before children is an order the list has to build. */
const CHAIN = 5;
const LARGE = LIST_ON_THREAD_FROM + 500;

let t: TestServer;
let db: RawDb;
let large: TestUser;
beforeAll(async () => {
  // On PostgreSQL a cluster of its own: another test file's write would move the version between the requests below.
  t = await startIsolatedTestServer({ raiseLimits: true });
  db = openRawDb({ dataDir: t.dataDir, databaseUrl: t.server.deps.config.databaseUrl });
  large = await t.user();
  await db.run(
    `INSERT INTO collections (id, user_id, name, parent_id, share_slug, sort_order, created_at, updated_at)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${LARGE - 1})
     SELECT 'col_list_' || i, ?, 'Folder ' || i, CASE WHEN i % ${CHAIN} = 0 THEN NULL ELSE 'col_list_' || (i - 1) END,
       'slug_list_' || i, CASE WHEN i % ${CHAIN} = 0 THEN i / ${CHAIN} ELSE 0 END, i, i
     FROM n`,
    large.userId,
  );
});
afterAll(async () => {
  await db.close();
  await t?.close();
});

const listOf = async (u: TestUser) => dataOf(await u.api('GET', '/collections'), z.array(Collection));

describe('GET /collections of a large tree', () => {
  it(`answers ${LARGE} collections as the store reads them, parents before children, and follows every write`, async () => {
    const first = await listOf(large);
    expect(first).toHaveLength(LARGE);
    expect(first).toEqual(await t.server.deps.store.collections.list(large.userId));
    expect(first.slice(0, 2).map((c) => [c.id, c.depth])).toEqual([['col_list_0', 0], ['col_list_5', 0]]);
    expect(first.at(-1)).toMatchObject({ depth: CHAIN - 1, parentId: expect.stringMatching(/^col_list_\d+$/) });

    // The list is read on a connection of its own where the tree is large: it sees this connection's writes at once.
    expect((await large.api('PATCH', '/collections/col_list_3', { body: { name: 'Renamed', parentId: null } })).status).toBe(200);
    const after = await listOf(large);
    expect(after.find((c) => c.id === 'col_list_3')).toMatchObject({ name: 'Renamed', parentId: null, depth: 0 });
    expect(after.find((c) => c.id === 'col_list_4')).toMatchObject({ parentId: 'col_list_3', depth: 1 });
    expect((await large.api('DELETE', '/collections/col_list_3')).status).toBe(200);
    expect((await listOf(large)).map((c) => c.id)).not.toContain('col_list_4');

    // A small tree is answered the same way.
    const small = await t.user();
    const made = dataOf(await small.api('POST', '/collections', { body: { name: 'Only' } }), Collection, 201);
    expect(await listOf(small)).toEqual([made]);
  });

  it('builds the list once for the requests that miss the read cache together, each answered in full', async () => {
    const collections = t.server.deps.store.collections;
    const listSerialized = collections.listSerialized.bind(collections);
    let built = 0;
    collections.listSerialized = (userId) => {
      built++;
      return listSerialized(userId);
    };
    try {
      // A write moves the data on: the next requests all miss the cache.
      expect((await large.api('PATCH', '/collections/col_list_0', { body: { name: 'Moved on' } })).status).toBe(200);
      const lists = await Promise.all(Array.from({ length: 8 }, () => listOf(large)));
      expect(built).toBe(1);
      for (const list of lists) {
        expect(list).toHaveLength(LARGE - 2); // col_list_3 and col_list_4 are in the trash since the test above
        expect(list).toEqual(lists[0]);
      }
      expect(lists[0]!.find((c) => c.id === 'col_list_0')?.name).toBe('Moved on');
    } finally {
      collections.listSerialized = listSerialized;
    }
  });
});
