import { expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_TAGS_PER_USER } from '../../lib/api/bookmarks.ts';
import { MergeResult, TagDeletedResult } from '../../lib/api/tag-edits.ts';
import { Tag } from '../../lib/api/tags.ts';
import { dataOf } from '../support/expect.ts';
import type { TestServer } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { seedTagsAtCaps } from '../support/tag-library.ts';
import { count } from './collections-tags-fixtures.ts';

let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started), { raiseLimits: true });

/**
 * Bookmarks carrying the same 100 tags each: 20,000 links under the root tag, hundreds of the slices the work is
 * done in. The tags are at their caps; bookmarks have none, and the bench takes 3,000 to make the wait visible.
 */
const BOOKMARKS = 200;

// What another user waits meanwhile is a figure of `npm run bench -- --only tags` (bench/tags.ts: these requests on
// this library, beside the same user alone), not of a test: a busy machine moves timings far more than the code does.
it('answers the worst tags requests the caps allow, each whole', { timeout: 240_000 }, async () => {
  const a = await t.user();
  const { rootId, carried } = await seedTagsAtCaps(db, a.userId, BOOKMARKS);

  const listed = dataOf(await a.api('GET', '/tags'), z.array(Tag));
  expect(listed).toHaveLength(MAX_TAGS_PER_USER);
  expect(listed.filter((tag) => carried.includes(tag.id)).map((tag) => tag.count)).toEqual(carried.map(() => BOOKMARKS));

  expect(dataOf(await a.api('PATCH', `/tags/${rootId}`, { body: { newName: 'renamed' } }), Tag).name).toBe('renamed');
  const names = dataOf(await a.api('GET', '/tags'), z.array(Tag)).map((tag) => tag.name);
  expect(names.filter((name) => name !== 'renamed' && !name.startsWith('renamed/'))).toEqual([]);

  const merged = dataOf(await a.api('POST', '/tags/merge', { body: { sourceTagId: carried[0], targetTagId: carried[1] } }), MergeResult);
  expect(merged).toMatchObject({ moved: BOOKMARKS, target: { count: BOOKMARKS } });

  expect(dataOf(await a.api('DELETE', `/tags/${rootId}`), TagDeletedResult)).toEqual({ id: rootId, deleted: true, tags: MAX_TAGS_PER_USER - 1 });
  expect(dataOf(await a.api('GET', '/tags'), z.array(Tag))).toEqual([]);
  expect(await count(db, 'SELECT COUNT(*) FROM bookmark_tags l JOIN bookmarks b ON b.id = l.bookmark_id WHERE b.user_id = ?', a.userId)).toBe(0);
});
