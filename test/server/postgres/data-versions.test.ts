import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../server/ids.ts';
import { startPostgres, type TestPostgres } from '../../support/postgres.ts';
import { addCollection, addUser, insertBookmarks, postgresDb, sqliteDb, type TestDb } from './store-backends.ts';

/**
 * Each user's data version (the read cache's, server/http/response-cache.ts), as the triggers keep
 * it on both backends: moved by every write to the user's cached data, whoever writes, and by no
 * other user's.
 */

let cluster: TestPostgres;
beforeAll(async () => {
  cluster = await startPostgres();
});
afterAll(async () => {
  await cluster?.stop();
});

const backends: [string, () => Promise<TestDb> | TestDb][] = [
  ['SQLite', () => sqliteDb()],
  ['PostgreSQL', () => postgresDb(cluster)],
];

const versionOf = async (db: TestDb, userId: string): Promise<string | undefined> =>
  (await db.all<{ v: string }>('SELECT CAST(version AS TEXT) AS v FROM data_versions WHERE user_id = ?', [userId]))[0]?.v;

describe.each(backends)('data versions on %s', (_, open) => {
  it("move with each write to a user's collections, bookmarks, tags, tag links and account, and never with another user's", async () => {
    const db = await open();
    try {
      const [a, b] = [await addUser(db), await addUser(db)];
      const tagId = newId('tag');
      let bookmarkId = '';
      const writes: [string, () => Promise<unknown>][] = [
        ['a collection made', () => addCollection(db, a)],
        ['a collection renamed', () => db.run("UPDATE collections SET name = 'Renamed' WHERE user_id = ?", [a])],
        ['a bookmark saved', () => insertBookmarks(db, a, [{ createdAt: 1 }])],
        ['a tag made', () => db.run("INSERT INTO tags (id, user_id, name, name_key, created_at) VALUES (?, ?, 'T', 't', 0)", [tagId, a])],
        [
          'a tag linked',
          async () => {
            bookmarkId = (await db.all<{ id: string }>('SELECT id FROM bookmarks WHERE user_id = ?', [a]))[0]!.id;
            await db.run('INSERT INTO bookmark_tags (bookmark_id, tag_id) VALUES (?, ?)', [bookmarkId, tagId]);
          },
        ],
        ['a tag unlinked', () => db.run('DELETE FROM bookmark_tags WHERE bookmark_id = ?', [bookmarkId])],
        ['a bookmark trashed', () => db.run('UPDATE bookmarks SET deleted_at = 5 WHERE id = ?', [bookmarkId])],
        ['the plan changed', () => db.run("UPDATE users SET plan = 'free' WHERE id = ?", [a])],
        ['a collection deleted', () => db.run('DELETE FROM collections WHERE user_id = ?', [a])],
      ];
      await addCollection(db, b);
      const bVersion = await versionOf(db, b);
      expect(bVersion).toBeDefined();
      for (const [what, write] of writes) {
        const before = await versionOf(db, a);
        await write();
        expect({ what, moved: (await versionOf(db, a)) !== before }).toEqual({ what, moved: true });
      }
      expect(await versionOf(db, b)).toBe(bVersion);
    } finally {
      await db.close();
    }
  });
});

describe('data versions on PostgreSQL', () => {
  it('move once per transaction, however many rows it writes, and not for a transaction rolled back', async () => {
    const test = await postgresDb(cluster);
    try {
      const a = await addUser(test);
      const before = await versionOf(test, a);
      const xid = await test.db.transaction(async (tx) => {
        await tx.run("INSERT INTO collections (id, user_id, name, share_slug, created_at, updated_at) VALUES ('c1', $1, 'A', 's1', 0, 0)", [a]);
        await tx.run("INSERT INTO collections (id, user_id, name, share_slug, created_at, updated_at) VALUES ('c2', $1, 'B', 's2', 0, 0)", [a]);
        return (await tx.get<{ x: string }>('SELECT pg_current_xact_id()::text AS x'))!.x;
      });
      const after = await versionOf(test, a);
      expect(after).toBe(xid);
      expect(after).not.toBe(before);
      await expect(
        test.db.transaction(async (tx) => {
          await tx.run("UPDATE collections SET name = 'Never' WHERE user_id = $1", [a]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await versionOf(test, a)).toBe(after);
    } finally {
      await test.close();
    }
  });
});
