import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Bookmark, MAX_TAGS_PER_USER } from '../../lib/api/bookmarks.ts';
import { Tag } from '../../lib/api/tags.ts';
import { dataOf, expectError } from '../support/expect.ts';
import type { TestServer, TestUser } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { count, seedBookmarks } from './collections-tags-fixtures.ts';
import { importFile } from './jobs-fixtures.ts';

let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started));

const Tags = z.array(Tag);
const listTags = async (u: TestUser) => dataOf(await u.api('GET', '/tags'), Tags);
const tagCount = (u: TestUser) => count(db, 'SELECT COUNT(*) FROM tags WHERE user_id = ?', u.userId);
const save = (u: TestUser, body: Record<string, unknown>) => u.api('POST', '/bookmarks', { body: { title: 'A page', ...body } });
const saved = async (u: TestUser, url: string) => dataOf(await save(u, { url }), Bookmark, 201);
const levels = (n: number, stem = 'l') => Array.from({ length: n }, (_, i) => `${stem}${i + 1}`).join('/');

/** Gives the user `n` root tags straight in the database: ten thousand requests would take minutes. */
async function seedTags(u: TestUser, n: number): Promise<void> {
  for (let start = 0; start < n; start += 500) {
    const rows = Array.from({ length: Math.min(500, n - start) }, (_, i) => [`tag_cap_${u.userId}_${start + i}`, u.userId, `seeded${start + i}`, `seeded${start + i}`]);
    await db.run(`INSERT INTO tags (id, user_id, name, name_key, created_at) VALUES ${rows.map(() => '(?, ?, ?, ?, 0)').join(', ')}`, ...rows.flat());
  }
}

const netscape = (rows: { url: string; tags: string[] }[]) =>
  [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<DL><p>',
    ...rows.map((r) => `<DT><A HREF="${r.url}" ADD_DATE="1600000000" TAGS="${r.tags.join(',')}">${r.url}</A>`),
    '</DL><p>',
  ].join('\n');

describe('tag depth: at most 8 levels', () => {
  it('refuses a ninth level on every way in, naming the field and the cap, creating nothing', async () => {
    const u = await t.user();
    const bookmark = await saved(u, 'https://depth.example/1');
    const deep = levels(9);
    const refusals = [
      ['name', await u.api('POST', '/tags', { body: { name: deep } })],
      ['tags.0', await save(u, { url: 'https://depth.example/2', tags: [deep] })],
      ['tags.0', await u.api('PATCH', `/bookmarks/${bookmark.id}`, { body: { tags: [deep] } })],
      ['name', await u.api('POST', `/bookmarks/${bookmark.id}/tags`, { body: { name: deep } })],
      ['name', await u.api('POST', '/bookmarks/bulk/tag', { body: { ids: [bookmark.id], name: deep } })],
    ] as const;
    for (const [field, res] of refusals) {
      expect(expectError(res, 400, 'VALIDATION_ERROR')).toContain(`${field}: must have at most 8 levels`);
    }
    expect(await tagCount(u)).toBe(0);

    const eight = dataOf(await u.api('POST', '/tags', { body: { name: levels(8) } }), Tag, 201);
    expect(eight.name).toBe(levels(8));
    expect(await tagCount(u)).toBe(8);
  });

  it('refuses a rename that would push a descendant past 8 levels, changing nothing', async () => {
    const u = await t.user();
    const root = dataOf(await u.api('POST', '/tags', { body: { name: 'top' } }), Tag, 201);
    dataOf(await u.api('POST', '/tags', { body: { name: `top/${levels(6)}` } }), Tag, 201);
    const before = await listTags(u);
    const message = expectError(await u.api('PATCH', `/tags/${root.id}`, { body: { newName: 'x/y/top' } }), 400, 'VALIDATION_ERROR');
    expect(message).toContain('deeper than 8 levels');
    expect(await listTags(u)).toEqual(before);
    dataOf(await u.api('PATCH', `/tags/${root.id}`, { body: { newName: 'x/top' } }), Tag);
  });

  it('skips an imported bookmark with a tag of 9 levels, with the reason, and imports the rest', async () => {
    const u = await t.user();
    const job = await importFile(t, u, netscape([
      { url: 'https://deep.example/too-deep', tags: [levels(9)] },
      { url: 'https://deep.example/fine', tags: [levels(8)] },
    ]));
    expect(job).toMatchObject({ status: 'completed', result: { imported: 1, skipped: 1, duplicates: 0 } });
    expect(job.skippedReasons).toEqual([{ reason: 'https://deep.example/too-deep: the tag "l1/l2/l3/l4/l5/l6/l7/l8/l9" has more than 8 levels, the most a tag may have' }]);
  });
});

describe('tags per bookmark: at most 100', () => {
  it('refuses 101 tags on create and patch in plain words, and a 101st added tag as a conflict', async () => {
    const u = await t.user();
    const hundred = Array.from({ length: 100 }, (_, i) => `t${i}`);
    const message = expectError(await save(u, { url: 'https://many.example/1', tags: [...hundred, 'one-more'] }), 400, 'VALIDATION_ERROR');
    expect(message).toBe('Invalid body: tags: must hold at most 100 items');
    const full = dataOf(await save(u, { url: 'https://many.example/2', tags: hundred }), Bookmark, 201);
    expect(expectError(await u.api('PATCH', `/bookmarks/${full.id}`, { body: { tags: [...hundred, 'x'] } }), 400, 'VALIDATION_ERROR')).toBe(
      'Invalid body: tags: must hold at most 100 items',
    );
    expect(expectError(await u.api('POST', `/bookmarks/${full.id}/tags`, { body: { name: 'x' } }), 409, 'CONFLICT')).toContain('already at 100 tags');
  });

  it('skips an imported bookmark with 101 tags, with the reason', async () => {
    const u = await t.user();
    const job = await importFile(t, u, netscape([
      { url: 'https://many.example/imported', tags: Array.from({ length: 101 }, (_, i) => `t${i}`) },
      { url: 'https://many.example/fine', tags: ['a'] },
    ]));
    expect(job).toMatchObject({ status: 'completed', result: { imported: 1, skipped: 1, duplicates: 0 } });
    expect(job.skippedReasons).toEqual([{ reason: 'https://many.example/imported: 101 tags, more than the 100 a bookmark may have' }]);
  });
});

describe(`tags per user: at most ${MAX_TAGS_PER_USER}`, () => {
  it('refuses new tags past the cap on every way in, with 409 and what to do, while existing tags stay usable', async () => {
    const u = await t.user();
    const bookmark = await saved(u, 'https://cap.example/1');
    const renamed = dataOf(await u.api('POST', '/tags', { body: { name: 'movable' } }), Tag, 201);
    await seedTags(u, MAX_TAGS_PER_USER - 2);
    // One below the cap: a name with a new parent needs two tags.
    const refusals = [
      await u.api('POST', '/tags', { body: { name: 'new/child' } }),
      await save(u, { url: 'https://cap.example/2', tags: ['new/child'] }),
      await u.api('PATCH', `/bookmarks/${bookmark.id}`, { body: { tags: ['new/child'] } }),
      await u.api('POST', `/bookmarks/${bookmark.id}/tags`, { body: { name: 'new/child' } }),
      await u.api('POST', '/bookmarks/bulk/tag', { body: { ids: [bookmark.id], name: 'new/child' } }),
      await u.api('PATCH', `/tags/${renamed.id}`, { body: { newName: 'other/parent/movable' } }),
    ];
    for (const res of refusals) {
      expect(expectError(res, 409, 'CONFLICT')).toMatch(
        new RegExp(`new tags and the account has ${MAX_TAGS_PER_USER - 1} of at most ${MAX_TAGS_PER_USER} tags; delete or merge tags first`),
      );
    }
    expect(await tagCount(u)).toBe(MAX_TAGS_PER_USER - 1);
    expect(dataOf(await u.api('GET', `/bookmarks/${bookmark.id}`), Bookmark).tags).toEqual([]);

    dataOf(await u.api('PATCH', `/bookmarks/${bookmark.id}`, { body: { tags: ['seeded1', 'movable'] } }), Bookmark);
    dataOf(await u.api('POST', '/tags', { body: { name: 'last' } }), Tag, 201);
    expect(await tagCount(u)).toBe(MAX_TAGS_PER_USER);
    expectError(await u.api('POST', '/tags', { body: { name: 'one-more' } }), 409, 'CONFLICT');
  });

  it('skips the imported bookmarks whose new tags pass the cap, with the reason, and imports the others', async () => {
    const u = await t.user();
    await seedTags(u, MAX_TAGS_PER_USER - 1);
    const job = await importFile(t, u, netscape([
      { url: 'https://cap.example/known-tag', tags: ['seeded5'] },
      { url: 'https://cap.example/one-new', tags: ['fresh'] },
      { url: 'https://cap.example/another-new', tags: ['fresher'] },
    ]));
    expect(job).toMatchObject({ status: 'completed', result: { imported: 2, skipped: 1, duplicates: 0 } });
    expect(job.skippedReasons).toEqual([
      {
        reason: `https://cap.example/another-new: this needs 1 new tag and the account has ${MAX_TAGS_PER_USER} of at most ${MAX_TAGS_PER_USER} tags; delete or merge tags first`,
      },
    ]);
    expect(await tagCount(u)).toBe(MAX_TAGS_PER_USER);
  });
});

describe('kept counts', () => {
  it('match the active bookmarks carrying each tag after every kind of change', async () => {
    const u = await t.user();
    const [a, b, c] = (await seedBookmarks(db, u.userId, 3, { tags: ['x', 'x/y', 'z'] })) as [string, string, string];
    const ok = async (res: Promise<{ status: number; body: unknown }>) => expect((await res).status, JSON.stringify((await res).body)).toBeLessThan(300);
    await ok(u.api('DELETE', `/bookmarks/${a}`));
    const tags = await listTags(u);
    const id = (name: string) => tags.find((tag) => tag.name === name)!.id;
    await ok(u.api('POST', '/bookmarks/bulk/tag', { body: { ids: [b, c], name: 'w' } }));
    await ok(u.api('POST', '/tags/merge', { body: { sourceTagId: id('z'), targetTagId: id('x/y') } }));
    await ok(u.api('POST', `/bookmarks/${a}/restore`));
    await ok(u.api('DELETE', `/bookmarks/${b}`));
    await ok(u.api('DELETE', `/bookmarks/${c}/permanent`));
    await ok(u.api('PATCH', `/tags/${id('x')}`, { body: { newName: 'v' } }));
    await ok(u.api('DELETE', `/bookmarks/${a}/tags/${id('x/y')}`));

    const counted = await db.all<{ name: string; count: number }>(
      `SELECT t.name, (SELECT COUNT(*) FROM bookmark_tags l JOIN bookmarks b ON b.id = l.bookmark_id
         WHERE l.tag_id = t.id AND b.deleted_at IS NULL) AS count FROM tags t WHERE t.user_id = ? ORDER BY t.name_key`,
      u.userId,
    );
    expect((await listTags(u)).map(({ name, count }) => ({ name, count }))).toEqual(counted);
    expect(counted).toEqual([
      { name: 'v', count: 1 },
      { name: 'v/y', count: 0 },
      { name: 'w', count: 0 },
    ]);
  });
});
