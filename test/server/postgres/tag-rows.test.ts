import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_TAGS_PER_USER } from '../../../lib/api/bookmarks.ts';
import type { Pg } from '../../../server/db/postgres/pg.ts';
import { ensureTags, findOrCreateTags, newTagCount, setBookmarkTags, userTagCount } from '../../../server/store/postgres/tag-rows.ts';
import { startPostgres, type TestPostgres } from '../../support/postgres.ts';
import { addUser, type PgTestDb, postgresDb } from './store-backends.ts';

let cluster: TestPostgres;
let test: PgTestDb;
let db: Pg;
let user: string;

beforeAll(async () => {
  cluster = await startPostgres();
});
afterAll(async () => {
  await cluster.stop();
});
beforeEach(async () => {
  test = await postgresDb(cluster);
  db = test.db;
  user = await addUser(test);
  return () => test.close();
});

const tags = (userId: string) =>
  db.all<{ id: string; name: string; name_key: string; parent_id: string | null; created_at: number }>(
    'SELECT id, name, name_key, parent_id, created_at FROM tags WHERE user_id = $1 ORDER BY seq',
    [userId],
  );

describe('PostgreSQL tag rows', () => {
  it('creates a tag with its ancestors, reuses existing levels in any case (their first spelling stays), a new level is spelt as given', async () => {
    const [id] = await ensureTags(db, user, ['Work/Projects/Shelf'], 5);
    const made = await tags(user);
    expect(made.map((t) => [t.name, t.name_key, t.created_at])).toEqual([
      ['Work', 'work', 5],
      ['Work/Projects', 'work/projects', 5],
      ['Work/Projects/Shelf', 'work/projects/shelf', 5],
    ]);
    expect(made.map((t) => t.parent_id)).toEqual([null, made[0]!.id, made[1]!.id]);
    expect(id).toBe(made[2]!.id);

    const again = await ensureTags(db, user, ['work/projects', 'WORK/Home', 'work/projects'], 6);
    const after = await tags(user);
    expect(after.map((t) => t.name)).toEqual(['Work', 'Work/Projects', 'Work/Projects/Shelf', 'WORK/Home']);
    expect(again).toEqual([made[1]!.id, after[3]!.id, made[1]!.id]);
    expect(after[3]!.parent_id).toBe(made[0]!.id);
  });

  it('counts the new tags a list of names needs, and the user\'s tags, per user', async () => {
    const other = await addUser(test);
    await findOrCreateTags(db, other, ['a/b'], 1);
    expect(await newTagCount(db, user, ['a/b', 'A/c', 'd'])).toBe(4);
    await ensureTags(db, user, ['a'], 1);
    expect(await newTagCount(db, user, ['a/b', 'A/c', 'd'])).toBe(3);
    expect(await newTagCount(db, user, [])).toBe(0);
    expect(await userTagCount(db, user)).toBe(1);
    expect(await userTagCount(db, other)).toBe(2);
  });

  it(`refuses names that would pass ${MAX_TAGS_PER_USER} tags, creating none`, async () => {
    await findOrCreateTags(db, user, Array.from({ length: MAX_TAGS_PER_USER - 1 }, (_, i) => `t${i}`), 1);
    await expect(ensureTags(db, user, ['x/y'], 2)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `this needs 2 new tags and the account has ${MAX_TAGS_PER_USER - 1} of at most ${MAX_TAGS_PER_USER} tags; delete or merge tags first`,
    });
    expect(await userTagCount(db, user)).toBe(MAX_TAGS_PER_USER - 1);
    await ensureTags(db, user, ['T0', 'x'], 2);
    expect(await userTagCount(db, user)).toBe(MAX_TAGS_PER_USER);
  });

  it('makes a bookmark\'s tags exactly the names given, keeping the kept counts', async () => {
    await db.run(
      `INSERT INTO bookmarks (id, user_id, url, url_key, title, domain, metadata_status, link_status, last_checked_at, created_at, updated_at)
       VALUES ('bm_1', $1, 'https://a.example/', 'a.example', 'A', 'a.example', 'ok', 'ok', 0, 0, 0)`,
      [user],
    );
    const linked = () =>
      db.all<{ name: string; active_count: number }>(
        'SELECT t.name, t.active_count FROM bookmark_tags l JOIN tags t ON t.id = l.tag_id WHERE l.bookmark_id = $1 ORDER BY l.seq',
        ['bm_1'],
      );
    await setBookmarkTags(db, user, 'bm_1', ['b', 'a/x', 'B'], 1);
    expect(await linked()).toEqual([{ name: 'b', active_count: 1 }, { name: 'a/x', active_count: 1 }]);
    await setBookmarkTags(db, user, 'bm_1', ['a'], 2);
    expect(await linked()).toEqual([{ name: 'a', active_count: 1 }]);
    expect((await tags(user)).map((t) => t.name)).toEqual(['b', 'a', 'a/x']);
    await setBookmarkTags(db, user, 'bm_1', [], 3);
    expect(await linked()).toEqual([]);
  });
});
