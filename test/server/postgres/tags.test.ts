import { setImmediate, setTimeout } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_TAG_DEPTH, MAX_TAGS_PER_USER } from '../../../lib/api/bookmarks.ts';
import type { Tag } from '../../../lib/api/tags.ts';
import { PG_CHUNK } from '../../../server/store/postgres/tag-links.ts';
import { setBookmarkTags } from '../../../server/store/postgres/tag-rows.ts';
import { PgTags } from '../../../server/store/postgres/tags.ts';
import { CHUNK } from '../../../server/store/shared/tag-slices.ts';
import { SqliteTags } from '../../../server/store/sqlite/tags.ts';
import type { TagsStore } from '../../../server/store/tags.ts';
import {
  BACKENDS,
  type BackendDb,
  addUser,
  count,
  freshDb,
  insertTags,
  insertTree,
  link,
  pgOf,
  rawRow,
  rejection,
  seedBookmarks,
  withCluster,
} from './library-fixtures.ts';

withCluster();

const NOW = 1_750_000_000_000;

describe.each(BACKENDS)('%s tags store', (backend) => {
  let db: BackendDb;
  let store: TagsStore;
  let user: string;

  beforeEach(async () => {
    db = await freshDb(backend);
    store = db.kind === 'sqlite' ? new SqliteTags(db.db) : new PgTags(db.db);
    user = await addUser(db);
  });

  afterEach(async () => {
    if (store instanceof SqliteTags) await store.close();
  });

  const create = (name: string, userId = user) => store.create(userId, { name }, NOW);
  const names = async (userId = user) => (await store.list(userId)).map((t) => t.name);
  const byName = async (name: string): Promise<Tag> => (await store.list(user)).find((t) => t.name === name)!;
  const updatedAt = async (id: string) => (await rawRow(db, 'bookmarks', id))!.updated_at;
  /** The bookmarks carrying the tag, in link order. */
  const carriers = async (tagId: string) =>
    (await db.all<{ bookmark_id: string }>('SELECT bookmark_id FROM bookmark_tags WHERE tag_id = ? ORDER BY seq', [tagId])).map((r) => r.bookmark_id);
  const noTags = () => count(db, 'SELECT no_tags FROM bookmark_stats WHERE user_id = ?', [user]);

  /** Waits until this many transactions wait for an advisory lock (the user's). */
  async function lockWaiters(n: number): Promise<void> {
    while ((await count(db, "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")) < n) await setTimeout(1);
  }

  /** Fills the user's tags up to `total` with plain tags written straight to the table. */
  async function fillTags(total: number): Promise<void> {
    const have = await count(db, 'SELECT COUNT(*) FROM tags WHERE user_id = ?', [user]);
    await insertTags(db, user, 'fill', total - have);
  }

  describe('creating and listing tags', () => {
    it('creates a tag with its missing ancestors and lists all by name key', async () => {
      const b = await store.create(user, { name: 'b', color: '#00ff00' }, NOW);
      expect(b).toEqual({ id: b.id, name: 'b', color: '#00ff00', parentId: null, count: 0, createdAt: new Date(NOW).toISOString() });
      const leaf = await create('A/x/y');
      await create('a/z');
      await create('C');
      const all = await store.list(user);
      // Each level keeps the spelling it was first made with.
      expect(all.map((t) => t.name)).toEqual(['A', 'A/x', 'A/x/y', 'a/z', 'b', 'C']);
      expect(leaf).toMatchObject({ name: 'A/x/y', color: null, parentId: all[1]!.id });
      expect(all[1]!.parentId).toBe(all[0]!.id);
      expect(all[3]!.parentId).toBe(all[0]!.id);
      expect(await names(await addUser(db))).toEqual([]);
    });

    it('refuses an existing name in any case, creating nothing', async () => {
      const tag = await create('Reading/Later');
      expect(await rejection(create('reading/later'), 'CONFLICT')).toBe(`a tag named "Reading/Later" already exists (${tag.id})`);
      await rejection(create('READING'), 'CONFLICT');
      expect(await names()).toEqual(['Reading', 'Reading/Later']);
    });

    it(`refuses tags past ${MAX_TAGS_PER_USER} a user, ancestors counted, while names that exist stay usable`, async () => {
      await create('kept/child');
      await fillTags(MAX_TAGS_PER_USER - 1);
      expect(await rejection(create('new/one'), 'CONFLICT')).toBe(
        `this needs 2 new tags and the account has ${MAX_TAGS_PER_USER - 1} of at most ${MAX_TAGS_PER_USER} tags; delete or merge tags first`,
      );
      await create('kept/sibling');
      expect(await rejection(create('other'), 'CONFLICT')).toContain(`this needs 1 new tag and the account has ${MAX_TAGS_PER_USER}`);
      expect(await count(db, 'SELECT COUNT(*) FROM tags WHERE user_id = ?', [user])).toBe(MAX_TAGS_PER_USER);
      // Another user's tags are theirs to count.
      await create('other', await addUser(db));
    });

    it('counts the active bookmarks carrying exactly the tag', async () => {
      const parent = await create('p');
      const child = await create('p/c');
      const active = await seedBookmarks(db, user, 3, { tagIds: [child.id] });
      await seedBookmarks(db, user, 2, { tagIds: [child.id], deletedAt: NOW });
      await db.run('UPDATE bookmarks SET deleted_at = ? WHERE id = ?', [NOW, active[0]]);
      expect((await store.list(user)).map((t) => [t.name, t.count])).toEqual([
        ['p', 0],
        ['p/c', 2],
      ]);
      expect((await store.bookmarksById(user, parent.id, 10)).tag!.count).toBe(0);
    });
  });

  describe('renaming tags', () => {
    it('renames a tag and the names under it, keeping ids, links and counts, and moves each bookmark once', async () => {
      const x = await create('a/x');
      const deep = await create('a/x/y/z');
      const other = await create('ab');
      const both = await seedBookmarks(db, user, 2, { tagIds: [x.id, deep.id] });
      const untouched = await seedBookmarks(db, user, 1, { tagIds: [other.id] });
      const before = await updatedAt(untouched[0]!);

      const renamed = await store.rename(user, x.id, 'new/place', NOW + 5);
      expect(renamed).toMatchObject({ id: x.id, name: 'new/place', count: 2 });
      expect(await names()).toEqual(['a', 'ab', 'new', 'new/place', 'new/place/y', 'new/place/y/z']);
      expect(renamed.parentId).toBe((await byName('new')).id);
      expect(await byName('new/place/y/z')).toMatchObject({ id: deep.id, count: 2 });
      expect(await updatedAt(both[0]!)).toBe(NOW + 5);
      expect(await updatedAt(untouched[0]!)).toBe(before);
      expect(await carriers(deep.id)).toEqual(both);
    });

    it('allows a change of case only, and a move to the top', async () => {
      const tag = await create('a/b/c');
      expect(await store.rename(user, tag.id, 'a/b/C', NOW)).toMatchObject({ id: tag.id, name: 'a/b/C' });
      expect(await store.rename(user, (await byName('a/b')).id, 'B', NOW)).toMatchObject({ name: 'B', parentId: null });
      expect(await names()).toEqual(['a', 'B', 'B/C']);
    });

    it('refuses a name in use, its own subtree, an overlong or too deep descendant and unknown ids, changing nothing', async () => {
      const a = await create('a/b/c');
      await create('taken/b');
      const root = await byName('a');
      const before = await store.list(user);

      expect(await rejection(store.rename(user, root.id, 'Taken', NOW), 'CONFLICT')).toBe(
        'a tag named "taken" already exists; merge the tags (POST /tags/merge) instead of renaming',
      );
      expect(await rejection(store.rename(user, (await byName('a/b')).id, 'TAKEN/B', NOW), 'CONFLICT')).toContain('a tag named "taken/b"');
      expect(await rejection(store.rename(user, root.id, 'a/b/c/d', NOW), 'VALIDATION_ERROR')).toBe(
        'Invalid body: newName: a tag cannot move under itself; choose a name outside its own subtree',
      );
      expect(await rejection(store.rename(user, root.id, 'x'.repeat(198), NOW), 'VALIDATION_ERROR')).toContain(
        'longer than 200 characters',
      );
      const deeper = Array.from({ length: MAX_TAG_DEPTH - 1 }, (_, i) => `l${i}`).join('/');
      expect(await rejection(store.rename(user, root.id, deeper, NOW), 'VALIDATION_ERROR')).toBe(
        `Invalid body: newName: would make the tag "${deeper}/b/c" deeper than ${MAX_TAG_DEPTH} levels, the most a tag may have`,
      );
      await rejection(store.rename(user, 'tag_nope', 'z', NOW), 'NOT_FOUND');
      const stranger = await addUser(db);
      await rejection(store.rename(stranger, a.id, 'z', NOW), 'NOT_FOUND');
      expect(await store.list(user)).toEqual(before);
    });

    it(`refuses a rename whose new ancestors would pass ${MAX_TAGS_PER_USER} tags, changing nothing`, async () => {
      const tag = await create('t');
      await fillTags(MAX_TAGS_PER_USER - 1);
      await rejection(store.rename(user, tag.id, 'p/q/t', NOW), 'CONFLICT');
      expect((await store.list(user)).find((t) => t.id === tag.id)!.name).toBe('t');
      expect(await store.rename(user, tag.id, 'fill1/t', NOW)).toMatchObject({ name: 'fill1/t', parentId: 'tag_fill1' });
    });

    it('moves updatedAt of every bookmark of a subtree larger than a slice, each once', async () => {
      const root = await create('root');
      const kids = [];
      for (let i = 0; i < CHUNK + 10; i++) kids.push(await create(`root/k${i}`));
      const many = await seedBookmarks(db, user, PG_CHUNK * 2 + 7, { tagIds: [root.id, kids[3]!.id] });
      const few = await seedBookmarks(db, user, 5, { tagIds: [kids.at(-1)!.id] });
      await store.rename(user, root.id, 'top', NOW + 9);
      expect(await count(db, 'SELECT COUNT(*) FROM bookmarks WHERE user_id = ? AND updated_at = ?', [user, NOW + 9])).toBe(
        many.length + few.length,
      );
      expect(await count(db, "SELECT COUNT(*) FROM tags WHERE user_id = ? AND name LIKE 'top%'", [user])).toBe(CHUNK + 11);
      expect((await byName('top')).count).toBe(many.length);
    });

    // 1 + 70 + 70² = 4,971 tags, near MAX_TAGS_PER_USER: SQLite renames them on a thread of its own.
    const WIDTH = 70;

    it('renames a subtree of thousands of tags at once: readers meanwhile see every old name, then every new one, never a mix', async () => {
      const [rootId, , grandchild] = await insertTree(db, user, 'r', WIDTH);
      const carried = await seedBookmarks(db, user, 3, { tagIds: [grandchild!] });
      const before = await store.list(user);
      const names = () =>
        db.all<{ old: number; new: number }>(
          "SELECT SUM(CASE WHEN substr(name_key, 1, 2) = 'r/' THEN 1 ELSE 0 END) AS old, SUM(CASE WHEN substr(name_key, 1, 8) = 'renamed/' THEN 1 ELSE 0 END) AS new FROM tags WHERE user_id = ?",
          [user],
        );
      const all = before.length - 1;
      const seen: string[] = [];
      let done = false;
      const renaming = store.rename(user, rootId!, 'renamed', NOW + 1).finally(() => (done = true));
      while (!done) {
        const [n] = await names();
        const state = Number(n!.old) === all && Number(n!.new) === 0 ? 'old' : Number(n!.old) === 0 && Number(n!.new) === all ? 'new' : 'mixed';
        if (seen.at(-1) !== state) seen.push(state);
        await setImmediate();
      }
      expect(await renaming).toMatchObject({ id: rootId, name: 'renamed', parentId: null });
      // The first look, right after the call, finds the rename not yet made: it runs while the event loop serves others.
      expect(seen).toEqual(['old', 'new']);
      expect(await store.list(user)).toEqual(before.map((t) => ({ ...t, name: t.name.replace(/^r/, 'renamed') })));
      expect(await count(db, 'SELECT COUNT(*) FROM bookmarks WHERE user_id = ? AND updated_at = ?', [user, NOW + 1])).toBe(carried.length);
    });

    it('a rename refused at a name deep in its subtree changes nothing, its new ancestors included', async () => {
      const [rootId] = await insertTree(db, user, 'r', WIDTH);
      // Taken outside the subtree by a tag written straight to the table without its ancestors: only a row deep in the subtree meets it.
      const clash = `p/renamed/c${WIDTH - 1}/g${WIDTH - 1}`;
      await db.run('INSERT INTO tags (id, user_id, name, name_key, created_at) VALUES (?, ?, ?, ?, 0)', ['tag_clash', user, clash, clash]);
      const before = await store.list(user);
      expect(await rejection(store.rename(user, rootId!, 'p/renamed', NOW), 'CONFLICT')).toBe(
        `a tag named "${clash}" already exists; merge the tags (POST /tags/merge) instead of renaming`,
      );
      expect(await store.list(user)).toEqual(before);
    });

    it.runIf(backend === 'sqlite')('a rename whose thread stops fails, changing nothing, and the next one starts another thread', async () => {
      const [rootId] = await insertTree(db, user, 'r', WIDTH);
      const before = await store.list(user);
      const renaming = store.rename(user, rootId!, 'renamed', NOW);
      await (store as SqliteTags).close();
      await expect(renaming).rejects.toThrow('the tag rename thread stopped');
      expect(await store.list(user)).toEqual(before);
      expect(await store.rename(user, rootId!, 'again', NOW)).toMatchObject({ id: rootId, name: 'again' });
    });
  });

  describe('deleting tags', () => {
    it('deletes the tag, its descendants and their links; bookmarks and look-alike names stay', async () => {
      const tag = await create('x_y');
      const child = await create('x_y/child');
      const alike = await create('xzy/child');
      const prefix = await create('x_yz');
      const carried = await seedBookmarks(db, user, 3, { tagIds: [tag.id, child.id] });
      const alone = await seedBookmarks(db, user, 2, { tagIds: [child.id, alike.id] });
      const stays = await seedBookmarks(db, user, 1, { tagIds: [prefix.id] });
      expect(await noTags()).toBe(0);

      expect(await store.remove(user, tag.id, NOW + 3)).toEqual({ id: tag.id, deleted: true, tags: 2 });
      expect(await names()).toEqual(['x_yz', 'xzy', 'xzy/child']);
      expect(await count(db, 'SELECT COUNT(*) FROM bookmarks WHERE user_id = ?', [user])).toBe(6);
      expect(await updatedAt(carried[0]!)).toBe(NOW + 3);
      expect(await updatedAt(alone[1]!)).toBe(NOW + 3);
      expect(await updatedAt(stays[0]!)).not.toBe(NOW + 3);
      expect((await byName('xzy/child')).count).toBe(2);
      expect(await noTags()).toBe(3);
      await rejection(store.remove(user, tag.id, NOW), 'NOT_FOUND');
    });

    it("answers NOT_FOUND for unknown and other users' tags, deleting nothing", async () => {
      const tag = await create('mine');
      await rejection(store.remove(user, 'tag_nope', NOW), 'NOT_FOUND');
      await rejection(store.remove(await addUser(db), tag.id, NOW), 'NOT_FOUND');
      expect(await names()).toEqual(['mine']);
    });

    it('deletes a subtree of more tags and links than a slice, deepest first', async () => {
      const root = await create('r');
      const deep = await create('r/1/2/3/4/5/6/7');
      for (let i = 0; i < CHUNK + 5; i++) await create(`r/k${i}`);
      const many = await seedBookmarks(db, user, PG_CHUNK + 3, { tagIds: [root.id, deep.id] });
      const outside = await create('outside');
      await link(db, many.slice(0, 10), outside.id);
      expect(await store.remove(user, root.id, NOW)).toEqual({ id: root.id, deleted: true, tags: CHUNK + 13 });
      expect(await names()).toEqual(['outside']);
      expect(await count(db, 'SELECT COUNT(*) FROM bookmark_tags')).toBe(10);
      expect(await noTags()).toBe(many.length - 10);
    });

    it.runIf(backend === 'postgres')('takes along the tags and links made under the deleted tag while its slices run', async () => {
      const root = await create('busy');
      const links = 20;
      await seedBookmarks(db, user, links, { tagIds: [root.id] });
      const [late] = await seedBookmarks(db, user, 1);
      let removing: Promise<unknown> = Promise.resolve();
      // As PgBookmarks tags a bookmark (under the user's lock) once the delete has read the subtree.
      await pgOf(db).transaction(
        async (tx) => {
          removing = store.remove(user, root.id, NOW);
          await lockWaiters(1);
          await setBookmarkTags(tx, user, late!, ['busy/late/child'], NOW);
        },
        { lock: `user:${user}` },
      );
      expect(await removing).toEqual({ id: root.id, deleted: true, tags: 3 });
      expect(await names()).toEqual([]);
      expect(await count(db, 'SELECT COUNT(*) FROM bookmark_tags')).toBe(0);
      expect(await noTags()).toBe(links + 1);
    });
  });

  describe('merging tags', () => {
    it("gives the source's bookmarks the target once, in the source's link order, and deletes the source", async () => {
      const source = await create('from');
      const target = await create('to');
      const shared = await seedBookmarks(db, user, 2, { tagIds: [target.id, source.id] });
      const onlySource = await seedBookmarks(db, user, PG_CHUNK + 20, { tagIds: [source.id] });
      const onlyTarget = await seedBookmarks(db, user, 1, { tagIds: [target.id] });
      await db.run('UPDATE bookmarks SET deleted_at = ? WHERE id = ?', [NOW, onlySource[0]]);

      const result = await store.merge(user, source.id, target.id, NOW + 7);
      expect(result).toEqual({ target: { ...target, count: shared.length + onlySource.length - 1 + onlyTarget.length }, moved: PG_CHUNK + 22 });
      expect(await names()).toEqual(['to']);
      expect(await carriers(target.id)).toEqual([...shared, ...onlyTarget, ...onlySource]);
      expect(await updatedAt(onlySource[5]!)).toBe(NOW + 7);
      expect(await updatedAt(onlyTarget[0]!)).not.toBe(NOW + 7);
      expect(await noTags()).toBe(0);
    });

    it('refuses a source with children, the same tag twice and unknown tags, changing nothing', async () => {
      const parent = await create('p/c');
      const source = await byName('p');
      const target = await create('t');
      await seedBookmarks(db, user, 2, { tagIds: [source.id] });
      const before = await store.list(user);
      expect(await rejection(store.merge(user, source.id, target.id, NOW), 'CONFLICT')).toBe(
        'only a tag without children can be merged; "p" has child tags (merge or delete those first)',
      );
      expect(await rejection(store.merge(user, target.id, target.id, NOW), 'VALIDATION_ERROR')).toBe(
        'Invalid body: targetTagId: must be another tag than sourceTagId',
      );
      await rejection(store.merge(user, 'tag_nope', target.id, NOW), 'NOT_FOUND');
      await rejection(store.merge(user, parent.id, 'tag_nope', NOW), 'NOT_FOUND');
      const stranger = await addUser(db);
      const theirs = await create('theirs', stranger);
      await rejection(store.merge(user, parent.id, theirs.id, NOW), 'NOT_FOUND');
      await rejection(store.merge(stranger, theirs.id, target.id, NOW), 'NOT_FOUND');
      expect(await store.list(user)).toEqual(before);
      expect(await carriers(source.id)).toHaveLength(2);
    });

    it.runIf(backend === 'postgres')('stops between slices when the target goes meanwhile, leaving the source whole with the rest, to merge again', async () => {
      const source = await create('source');
      const target = await create('target');
      const links = PG_CHUNK * 4;
      const ids = await seedBookmarks(db, user, links, { tagIds: [source.id] });
      let merging: Promise<string> = Promise.resolve('');
      let deleting: Promise<number> = Promise.resolve(0);
      // The merge's first slice waits for this transaction, the delete for that slice.
      await pgOf(db).transaction(
        async () => {
          merging = rejection(store.merge(user, source.id, target.id, NOW), 'NOT_FOUND');
          await lockWaiters(1);
          deleting = pgOf(db).transaction((tx) => tx.run('DELETE FROM tags WHERE id = $1', [target.id]), { lock: `user:${user}` });
          await lockWaiters(2);
        },
        { lock: `user:${user}` },
      );
      expect(await deleting).toBe(1);
      expect(await merging).toBe(`tag ${target.id} not found`);

      const rest = await carriers(source.id);
      expect(rest.length).toBeGreaterThan(0);
      expect(rest.length).toBeLessThan(links);
      expect(rest).toEqual(ids.slice(links - rest.length));
      expect((await byName('source')).count).toBe(rest.length);
      const again = await create('again');
      expect(await store.merge(user, source.id, again.id, NOW)).toMatchObject({ target: { id: again.id, count: rest.length }, moved: rest.length });
      expect(await names()).toEqual(['again']);
    });

    it('merges a child into its parent, leaving the parent a leaf', async () => {
      const child = await create('p/c');
      const parent = await byName('p');
      await seedBookmarks(db, user, 3, { tagIds: [child.id] });
      expect(await store.merge(user, child.id, parent.id, NOW)).toMatchObject({ target: { id: parent.id, count: 3 }, moved: 3 });
      expect(await names()).toEqual(['p']);
    });
  });

  describe('bookmarks of a tag', () => {
    it('answers the active bookmarks carrying exactly the tag, newest first, by id or by name in any case', async () => {
      const tag = await create('Read/Later');
      const parent = await byName('Read');
      const ids = await seedBookmarks(db, user, 4, { tagIds: [tag.id] });
      await seedBookmarks(db, user, 1, { tagIds: [tag.id], deletedAt: NOW });
      await db.run('UPDATE bookmarks SET deleted_at = ? WHERE id = ?', [NOW, ids[1]]);

      const byId = await store.bookmarksById(user, tag.id, 2);
      expect(byId.tag).toMatchObject({ id: tag.id, count: 3 });
      expect(byId.bookmarks.map((b) => b.id)).toEqual([ids[3], ids[2]]);
      expect(byId.bookmarks[0]!.tags).toEqual(['Read/Later']);
      expect(await store.bookmarksByName(user, 'read/later', 10)).toEqual({ ...byId, bookmarks: (await store.bookmarksById(user, tag.id, 10)).bookmarks });
      expect((await store.bookmarksByName(user, 'READ/LATER', 10)).bookmarks.map((b) => b.id)).toEqual([ids[3], ids[2], ids[0]]);
      expect(await store.bookmarksById(user, parent.id, 10)).toMatchObject({ bookmarks: [], tag: { id: parent.id } });
    });

    it("answers tag null for unknown names and ids, names that could be no tag's, and other users' tags", async () => {
      const tag = await create('mine');
      await seedBookmarks(db, user, 1, { tagIds: [tag.id] });
      const none = { bookmarks: [], tag: null };
      expect(await store.bookmarksByName(user, 'nope', 10)).toEqual(none);
      expect(await store.bookmarksByName(user, 'a//b', 10)).toEqual(none);
      expect(await store.bookmarksById(user, 'tag_nope', 10)).toEqual(none);
      const stranger = await addUser(db);
      expect(await store.bookmarksById(stranger, tag.id, 10)).toEqual(none);
      expect(await store.bookmarksByName(stranger, 'mine', 10)).toEqual(none);
    });
  });
});
