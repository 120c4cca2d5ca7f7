import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_TAGS_PER_BOOKMARK } from '../../lib/api/bookmarks.ts';
import { Tag } from '../../lib/api/tags.ts';
import { dataOf, expectError } from '../support/expect.ts';
import type { TestServer, TestUser } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { getBookmark, save, updatedMs } from './bookmarks-fixtures.ts';

let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started), { raiseLimits: true });

const Tags = z.array(Tag);
const tagsOf = async (u: TestUser, id: string) => dataOf(await u.api('GET', `/bookmarks/${id}/tags`), Tags);
const tagRows = (userId: string) =>
  db.all<{ id: string; name: string; parent_id: string | null }>('SELECT id, name, parent_id FROM tags WHERE user_id = ? ORDER BY name_key', userId);

describe('GET /bookmarks/:id/tags', () => {
  it('answers tag objects ordered by name, counting active bookmarks only', async () => {
    const u = await t.user();
    const a = await save(u, { url: 'https://tags.example/a', tags: ['zeta', 'Alpha/Beta'] });
    await save(u, { url: 'https://tags.example/b', tags: ['zeta'] });
    const c = await save(u, { url: 'https://tags.example/c', tags: ['zeta'] });
    await u.api('DELETE', `/bookmarks/${c.id}`);

    const tags = await tagsOf(u, a.id);
    const alpha = (await tagRows(u.userId)).find((r) => r.name === 'Alpha')!;
    expect(tags).toEqual([
      { id: expect.stringMatching(/^tag_/), name: 'Alpha/Beta', color: null, parentId: alpha.id, count: 1, createdAt: a.createdAt },
      { id: expect.stringMatching(/^tag_/), name: 'zeta', color: null, parentId: null, count: 2, createdAt: a.createdAt },
    ]);
    // A trashed bookmark's tags stay readable.
    expect((await tagsOf(u, c.id)).map((x) => x.name)).toEqual(['zeta']);
  });

  it('answers an empty list for a bookmark without tags, 404 for an unknown one', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://untagged.example/' });
    expect(await tagsOf(u, b.id)).toEqual([]);
    expectError(await u.api('GET', '/bookmarks/bm_nope/tags'), 404, 'NOT_FOUND');
  });
});

describe('POST /bookmarks/:id/tags', () => {
  it('adds a tag, creating it and its ancestors, and answers 201 with the bookmark\'s tags', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://add.example/', tags: ['existing'] });
    await t.advance(1000);
    const res = await u.api('POST', `/bookmarks/${b.id}/tags`, { body: { name: ' Topics / Web  Dev ' } });
    expect(dataOf(res, Tags, 201).map((x) => x.name)).toEqual(['existing', 'Topics/Web Dev']);
    expect((await tagRows(u.userId)).map((r) => r.name)).toEqual(['existing', 'Topics', 'Topics/Web Dev']);
    const after = await getBookmark(u, b.id);
    expect(after.tags).toEqual(['existing', 'Topics/Web Dev']);
    expect(updatedMs(after)).toBeGreaterThan(updatedMs(b));
  });

  it('reuses a tag whatever the case, and adding it twice changes nothing', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://case.example/', tags: ['News'] });
    const res = await u.api('POST', `/bookmarks/${b.id}/tags`, { body: { name: 'NEWS' } });
    expect(dataOf(res, Tags, 201).map((x) => x.name)).toEqual(['News']);
    expect(await tagRows(u.userId)).toHaveLength(1);
    expect(await getBookmark(u, b.id)).toEqual(b);
  });

  it.each([[{}], [{ name: '' }], [{ name: 'a//b' }], [{ name: 'x'.repeat(201) }], [{ name: 5 }]])('refuses %j with 400 and creates nothing', async (body) => {
    const u = await t.user();
    const b = await save(u, { url: 'https://bad-tag.example/' });
    expect(expectError(await u.api('POST', `/bookmarks/${b.id}/tags`, { body }), 400, 'VALIDATION_ERROR')).toContain('name');
    expect(await tagRows(u.userId)).toEqual([]);
  });

  it('answers 409 for a trashed bookmark and for one already at the tag limit, changing nothing', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://trashed-tag.example/' });
    const trashed = dataOf(await u.api('DELETE', `/bookmarks/${b.id}`), z.unknown());
    expectError(await u.api('POST', `/bookmarks/${b.id}/tags`, { body: { name: 'x' } }), 409, 'CONFLICT');
    expect(await getBookmark(u, b.id)).toEqual(trashed);
    expect(await tagRows(u.userId)).toEqual([]);

    const full = await save(u, { url: 'https://full-tags.example/', tags: Array.from({ length: MAX_TAGS_PER_BOOKMARK }, (_, i) => `t${i}`) });
    expect(expectError(await u.api('POST', `/bookmarks/${full.id}/tags`, { body: { name: 'one-more' } }), 409, 'CONFLICT')).toContain(
      String(MAX_TAGS_PER_BOOKMARK),
    );
    expect((await tagRows(u.userId)).some((r) => r.name === 'one-more')).toBe(false);
    // A tag it already has is not one more.
    expect(dataOf(await u.api('POST', `/bookmarks/${full.id}/tags`, { body: { name: 't5' } }), Tags, 201)).toHaveLength(MAX_TAGS_PER_BOOKMARK);
  });
});

describe('DELETE /bookmarks/:id/tags/:tagId', () => {
  it('removes the link, keeps the tag, and answers the bookmark\'s tags', async () => {
    const u = await t.user();
    const b = await save(u, { url: 'https://untag.example/', tags: ['a', 'b'] });
    const tagA = (await tagRows(u.userId)).find((r) => r.name === 'a')!;
    await t.advance(1000);
    expect(dataOf(await u.api('DELETE', `/bookmarks/${b.id}/tags/${tagA.id}`), Tags).map((x) => x.name)).toEqual(['b']);
    expect((await tagRows(u.userId)).map((r) => r.name)).toEqual(['a', 'b']);
    const after = await getBookmark(u, b.id);
    expect(after.tags).toEqual(['b']);
    expect(updatedMs(after)).toBeGreaterThan(updatedMs(b));
  });

  it('answers 404 for a tag not on the bookmark, unknown, or another user\'s; 409 on a trashed bookmark', async () => {
    const u = await t.user();
    const stranger = await t.user();
    const b = await save(u, { url: 'https://untag-errors.example/', tags: ['on'] });
    await save(u, { url: 'https://untag-errors.example/2', tags: ['elsewhere'] });
    await save(stranger, { url: 'https://theirs.example/', tags: ['on'] });
    const mine = await tagRows(u.userId);
    const elsewhere = mine.find((r) => r.name === 'elsewhere')!.id;
    const on = mine.find((r) => r.name === 'on')!.id;
    const theirs = (await tagRows(stranger.userId))[0]!.id;
    for (const tagId of [elsewhere, 'tag_unknown', theirs]) {
      expect(expectError(await u.api('DELETE', `/bookmarks/${b.id}/tags/${tagId}`), 404, 'NOT_FOUND')).toContain(tagId);
    }
    expect(await getBookmark(u, b.id)).toEqual(b);

    const trashed = dataOf(await u.api('DELETE', `/bookmarks/${b.id}`), z.unknown());
    expectError(await u.api('DELETE', `/bookmarks/${b.id}/tags/${on}`), 409, 'CONFLICT');
    expect(await getBookmark(u, b.id)).toEqual(trashed);
  });
});
