import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MergeResult, TagDeletedResult } from '../../lib/api/tag-edits.ts';
import { Tag, TagBookmarks } from '../../lib/api/tags.ts';
import { dataOf, expectError } from '../support/expect.ts';
import type { TestServer, TestUser } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { count, rawRow, seedBookmarks } from './collections-tags-fixtures.ts';

let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started));

const Tags = z.array(Tag);

const createTag = async (u: TestUser, body: Record<string, unknown>) => dataOf(await u.api('POST', '/tags', { body }), Tag, 201);
const listTags = async (u: TestUser) => dataOf(await u.api('GET', '/tags'), Tags);
const byName = (tags: Tag[], name: string) => tags.find((tag) => tag.name === name);
const rename = (u: TestUser, id: string, newName: unknown) => u.api('PATCH', `/tags/${id}`, { body: { newName } });
const merge = (u: TestUser, sourceTagId: string, targetTagId: string) => u.api('POST', '/tags/merge', { body: { sourceTagId, targetTagId } });
const byIdPage = async (u: TestUser, id: string, query = '') => dataOf(await u.api('GET', `/tags/by-id/${id}/bookmarks${query}`), TagBookmarks);
const byNamePage = async (u: TestUser, path: string) => dataOf(await u.api('GET', `/tags/${path}/bookmarks`), TagBookmarks);
/** Seeded trash must look recent, or the trash purge could take it. */
const now = () => t.server.deps.clock.now();

describe('creating and listing tags', () => {
  it('creates a tag with its missing ancestors and lists all by name', async () => {
    const u = await t.user();
    const leaf = await createTag(u, { name: ' Work / Projects /  Shelf  API ', color: 'teal' });
    expect(leaf).toMatchObject({ name: 'Work/Projects/Shelf API', color: 'teal', count: 0 });
    expect(new Date(leaf.createdAt).toISOString()).toBe(leaf.createdAt);
    const plain = await createTag(u, { name: 'alpha' });
    expect(plain).toMatchObject({ color: null, parentId: null });

    const tags = await listTags(u);
    expect(tags.map((tag) => tag.name)).toEqual(['alpha', 'Work', 'Work/Projects', 'Work/Projects/Shelf API']);
    const work = byName(tags, 'Work')!;
    const projects = byName(tags, 'Work/Projects')!;
    expect(work).toMatchObject({ parentId: null, color: null });
    expect(projects.parentId).toBe(work.id);
    expect(leaf.parentId).toBe(projects.id);

    const child = await createTag(u, { name: 'work/other' });
    expect(child.parentId).toBe(work.id);
  });

  it('refuses an existing name in any case, and bad names, creating nothing', async () => {
    const u = await t.user();
    await createTag(u, { name: 'News/Tech' });
    const before = await listTags(u);
    expect(expectError(await u.api('POST', '/tags', { body: { name: 'news/TECH' } }), 409, 'CONFLICT')).toContain('News/Tech');
    expect(expectError(await u.api('POST', '/tags', { body: { name: 'NEWS' } }), 409, 'CONFLICT')).toContain('News');
    for (const name of ['', '  ', 'a//b', '/a', 'x'.repeat(201)]) {
      expect(expectError(await u.api('POST', '/tags', { body: { name } }), 400, 'VALIDATION_ERROR')).toContain('name');
    }
    expect(expectError(await u.api('POST', '/tags', { body: { name: 'ok', color: 'c'.repeat(33) } }), 400, 'VALIDATION_ERROR')).toContain('color');
    expect(await listTags(u)).toEqual(before);
  });

  it('counts the active bookmarks carrying exactly the tag', async () => {
    const u = await t.user();
    await seedBookmarks(db, u.userId, 2, { tags: ['a/b'] });
    await seedBookmarks(db, u.userId, 1, { tags: ['a/b'], deletedAt: now() });
    await seedBookmarks(db, u.userId, 1, { tags: ['a', 'other'] });
    const tags = await listTags(u);
    expect(tags.map((tag) => [tag.name, tag.count])).toEqual([['a', 1], ['a/b', 2], ['other', 1]]);
  });
});

describe('renaming tags', () => {
  it('renames a tag and the names under it, keeping ids and bookmark links', async () => {
    const u = await t.user();
    const [marked] = await seedBookmarks(db, u.userId, 1, { tags: ['a/b/c', 'keep'] });
    const tags = await listTags(u);
    const a = byName(tags, 'a')!;

    const renamed = dataOf(await rename(u, a.id, 'x'), Tag);
    expect(renamed).toMatchObject({ id: a.id, name: 'x', parentId: null });
    const after = await listTags(u);
    expect(after.map((tag) => tag.name)).toEqual(['keep', 'x', 'x/b', 'x/b/c']);
    expect(byName(after, 'x/b/c')).toMatchObject({ id: byName(tags, 'a/b/c')!.id, count: 1, parentId: byName(tags, 'a/b')!.id });
    const page = await byIdPage(u, byName(tags, 'a/b/c')!.id);
    expect(page.bookmarks.map((b) => [b.id, b.tags])).toEqual([[marked, ['keep', 'x/b/c']]]);
    // its tag names changed, so the bookmark counts as updated
    const row = (await rawRow(db, 'bookmarks', marked!))!;
    expect(row.updated_at).toBeGreaterThan(row.created_at as number);

    // into a new branch: the missing ancestors appear, the old parent stays
    const moved = dataOf(await rename(u, byName(after, 'x/b')!.id, 'p/q/b'), Tag);
    const final = await listTags(u);
    expect(final.map((tag) => tag.name)).toEqual(['keep', 'p', 'p/q', 'p/q/b', 'p/q/b/c', 'x']);
    expect(moved.parentId).toBe(byName(final, 'p/q')!.id);
    expect(byName(final, 'p/q')!.parentId).toBe(byName(final, 'p')!.id);
  });

  it('allows a change of case only', async () => {
    const u = await t.user();
    const tag = await createTag(u, { name: 'shelf/api' });
    const parent = byName(await listTags(u), 'shelf')!;
    expect(dataOf(await rename(u, parent.id, 'Shelf'), Tag).name).toBe('Shelf');
    expect((await listTags(u)).map((x) => [x.id, x.name])).toEqual([
      [parent.id, 'Shelf'],
      [tag.id, 'Shelf/api'],
    ]);
  });

  it('refuses a name in use, its own subtree, an overlong descendant and unknown ids, changing nothing', async () => {
    const u = await t.user();
    const other = await t.user();
    const foreign = await createTag(other, { name: 'theirs' });
    await createTag(u, { name: 'm/k' });
    await createTag(u, { name: 'n' });
    await createTag(u, { name: `s/${'k'.repeat(150)}` });
    const before = await listTags(u);
    const m = byName(before, 'm')!;

    expect(expectError(await rename(u, m.id, 'N'), 409, 'CONFLICT')).toMatch(/"n".*merge/);
    expect(expectError(await rename(u, m.id, 'm/k/z'), 400, 'VALIDATION_ERROR')).toContain('newName');
    expect(expectError(await rename(u, m.id, 'M/new'), 400, 'VALIDATION_ERROR')).toContain('newName');
    expect(expectError(await rename(u, byName(before, 's')!.id, 'r'.repeat(60)), 400, 'VALIDATION_ERROR')).toContain('200');
    expect(expectError(await rename(u, m.id, 'a//b'), 400, 'VALIDATION_ERROR')).toContain('newName');
    expectError(await rename(u, 'tag_nope', 'z'), 404, 'NOT_FOUND');
    expectError(await rename(u, foreign.id, 'z'), 404, 'NOT_FOUND');
    expect(await listTags(u)).toEqual(before);
    expect((await listTags(other)).map((x) => x.name)).toEqual(['theirs']);
  });
});

describe('deleting tags', () => {
  it('deletes the tag, its descendants and their links; bookmarks and look-alike names stay', async () => {
    const u = await t.user();
    const [b1, b2] = await seedBookmarks(db, u.userId, 2, { tags: ['d/e/f', 'dd', '50%/x'] });
    await createTag(u, { name: 'd_/z' });
    await createTag(u, { name: '50a' });
    await createTag(u, { name: 'dx/y' });
    const tags = await listTags(u);
    const d = byName(tags, 'd')!;

    expect(dataOf(await u.api('DELETE', `/tags/${d.id}`), TagDeletedResult)).toEqual({ id: d.id, deleted: true, tags: 3 });
    expect((await listTags(u)).map((tag) => tag.name)).toEqual(['50%', '50%/x', '50a', 'd_', 'd_/z', 'dd', 'dx', 'dx/y']);
    expect(await count(db, 'SELECT COUNT(*) FROM bookmark_tags WHERE tag_id = ?', byName(tags, 'd/e/f')!.id)).toBe(0);
    expect(await rawRow(db, 'bookmarks', b1!)).toMatchObject({ deleted_at: null });
    expect(await rawRow(db, 'bookmarks', b2!)).toMatchObject({ deleted_at: null });

    const percent = byName(tags, '50%')!;
    expect(dataOf(await u.api('DELETE', `/tags/${percent.id}`), TagDeletedResult).tags).toBe(2);
    // % and _ are plain characters in names, not patterns
    expect(dataOf(await u.api('DELETE', `/tags/${byName(tags, 'd_')!.id}`), TagDeletedResult).tags).toBe(2);
    expect((await listTags(u)).map((tag) => tag.name)).toEqual(['50a', 'dd', 'dx', 'dx/y']);
    expect((await byIdPage(u, byName(tags, 'dd')!.id)).bookmarks.map((b) => b.tags)).toEqual([['dd'], ['dd']]);
  });

  it("answers 404 for unknown and other users' tags, deleting nothing", async () => {
    const u = await t.user();
    const other = await t.user();
    const foreign = await createTag(other, { name: 'theirs/child' });
    expectError(await u.api('DELETE', '/tags/tag_nope'), 404, 'NOT_FOUND');
    expectError(await u.api('DELETE', `/tags/${foreign.parentId}`), 404, 'NOT_FOUND');
    expect((await listTags(other)).map((x) => x.name)).toEqual(['theirs', 'theirs/child']);
  });
});

describe('merging tags', () => {
  it("gives the source's bookmarks the target once and deletes the source", async () => {
    const u = await t.user();
    const [onlySource] = await seedBookmarks(db, u.userId, 1, { tags: ['old'] });
    const [both] = await seedBookmarks(db, u.userId, 1, { tags: ['old', 'new/kind'] });
    await seedBookmarks(db, u.userId, 1, { tags: ['new/kind'] });
    const [trashedOne] = await seedBookmarks(db, u.userId, 1, { tags: ['old'], deletedAt: now() });
    const tags = await listTags(u);
    const source = byName(tags, 'old')!;
    const target = byName(tags, 'new/kind')!;

    const result = dataOf(await merge(u, source.id, target.id), MergeResult);
    expect(result).toEqual({ target: { ...target, count: 3 }, moved: 3 });
    expect(byName(await listTags(u), 'old')).toBeUndefined();
    for (const id of [onlySource, both, trashedOne]) {
      expect(await count(db, 'SELECT COUNT(*) FROM bookmark_tags WHERE bookmark_id = ? AND tag_id = ?', id, target.id)).toBe(1);
    }
    expect((await byIdPage(u, target.id)).bookmarks.map((b) => b.tags)).toEqual([['new/kind'], ['new/kind'], ['new/kind']]);
  });

  it('refuses a source with children, the same tag twice and unknown tags, changing nothing', async () => {
    const u = await t.user();
    const other = await t.user();
    const foreign = await createTag(other, { name: 'theirs' });
    await seedBookmarks(db, u.userId, 1, { tags: ['parent/child', 'target'] });
    const before = await listTags(u);
    const parent = byName(before, 'parent')!;
    const target = byName(before, 'target')!;

    expect(expectError(await merge(u, parent.id, target.id), 409, 'CONFLICT')).toContain('without children');
    expect(expectError(await merge(u, target.id, target.id), 400, 'VALIDATION_ERROR')).toContain('targetTagId');
    expectError(await merge(u, 'tag_nope', target.id), 404, 'NOT_FOUND');
    expectError(await merge(u, target.id, 'tag_nope'), 404, 'NOT_FOUND');
    expectError(await merge(u, target.id, foreign.id), 404, 'NOT_FOUND');
    expectError(await merge(u, foreign.id, target.id), 404, 'NOT_FOUND');
    expect(expectError(await u.api('POST', '/tags/merge', { body: { sourceTagId: target.id } }), 400, 'VALIDATION_ERROR')).toContain('targetTagId');
    expect(await listTags(u)).toEqual(before);
    expect(await listTags(other)).toEqual([foreign]);
  });
});

describe('bookmarks of a tag', () => {
  it('finds a hierarchical tag by name with plain or encoded slashes, in any case, and by id', async () => {
    const u = await t.user();
    const marked = await seedBookmarks(db, u.userId, 3, { tags: ['Dev/Web Stuff/CSS'] });
    await seedBookmarks(db, u.userId, 1, { tags: ['Dev/Web Stuff/CSS'], deletedAt: now() });
    await seedBookmarks(db, u.userId, 1, { tags: ['Dev/Web Stuff'] });
    const tag = byName(await listTags(u), 'Dev/Web Stuff/CSS')!;
    const newestFirst = [...marked].reverse();

    for (const path of ['Dev/Web%20Stuff/CSS', 'dev%2Fweb%20stuff%2Fcss', 'DEV/WEB%20STUFF%2Fcss', ' dev / web%20stuff / css ']) {
      const page = await byNamePage(u, path.replaceAll(' ', '%20'));
      expect(page.tag, path).toEqual(tag);
      expect(page.bookmarks.map((b) => b.id)).toEqual(newestFirst);
    }
    const page = await byIdPage(u, tag.id);
    expect(page).toEqual(await byNamePage(u, 'Dev/Web%20Stuff/CSS'));
    expect(page.tag).toMatchObject({ count: 3 });
  });

  it('answers tag null and no bookmarks for unknown names and ids, and for ids of other users', async () => {
    const u = await t.user();
    const other = await t.user();
    await seedBookmarks(db, other.userId, 1, { tags: ['secret'] });
    const foreign = byName(await listTags(other), 'secret')!;
    await seedBookmarks(db, u.userId, 1, { tags: ['mine'] });
    const empty = { bookmarks: [], tag: null };
    expect(await byNamePage(u, 'nothing/here')).toEqual(empty);
    expect(await byNamePage(u, 'secret')).toEqual(empty);
    expect(await byNamePage(u, 'a%2F%2Fb')).toEqual(empty);
    expect(await byIdPage(u, 'tag_nope')).toEqual(empty);
    expect(await byIdPage(u, foreign.id)).toEqual(empty);
  });

  it('takes 50 by default and at most 200, refusing a bad limit', async () => {
    const u = await t.user();
    await seedBookmarks(db, u.userId, 205, { tags: ['bulk'] });
    const tag = byName(await listTags(u), 'bulk')!;
    expect((await byIdPage(u, tag.id)).bookmarks).toHaveLength(50);
    expect((await byIdPage(u, tag.id, '?limit=500')).bookmarks).toHaveLength(200);
    expect((await byNamePage(u, 'bulk')).bookmarks).toHaveLength(50);
    expect(dataOf(await u.api('GET', '/tags/bulk/bookmarks?limit=7'), TagBookmarks).bookmarks).toHaveLength(7);
    expect(expectError(await u.api('GET', '/tags/bulk/bookmarks?limit=0'), 400, 'VALIDATION_ERROR')).toContain('limit');
    expect(expectError(await u.api('GET', `/tags/by-id/${tag.id}/bookmarks?limit=abc`), 400, 'VALIDATION_ERROR')).toContain('limit');
  });

  it('routes /tags/by-id/X/bookmarks to the id form; tags named by-id stay reachable by name', async () => {
    const u = await t.user();
    const [one] = await seedBookmarks(db, u.userId, 1, { tags: ['by-id'] });
    const [two] = await seedBookmarks(db, u.userId, 1, { tags: ['by-id/k'] });
    const [three] = await seedBookmarks(db, u.userId, 1, { tags: ['by-id/k/deep'] });
    const tags = await listTags(u);

    expect((await byNamePage(u, 'by-id')).bookmarks.map((b) => b.id)).toEqual([one]);
    // one level under "by-id" is read as an id...
    expect(await byNamePage(u, 'by-id/k')).toEqual({ bookmarks: [], tag: null });
    // ...unless the slash is encoded
    expect((await byNamePage(u, 'by-id%2Fk')).tag?.id).toBe(byName(tags, 'by-id/k')!.id);
    expect((await byNamePage(u, 'by-id%2Fk')).bookmarks.map((b) => b.id)).toEqual([two]);
    expect((await byNamePage(u, 'by-id/k/deep')).bookmarks.map((b) => b.id)).toEqual([three]);
  });
});
