import { expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_TAGS_PER_USER } from '../../lib/api/bookmarks.ts';
import { MergeResult, TagDeletedResult } from '../../lib/api/tag-edits.ts';
import { Tag } from '../../lib/api/tags.ts';
import { dataOf } from '../support/expect.ts';
import { latencyDuring } from '../support/latency.ts';
import type { ApiResponse, TestServer } from '../support/server.ts';
import type { RawDb } from '../support/raw-db.ts';
import { withServerAndRawDb } from '../support/server-per-file.ts';
import { seedTagsAtCaps } from '../support/tag-library.ts';
import { count } from './collections-tags-fixtures.ts';

let t: TestServer;
let db: RawDb;
withServerAndRawDb((started) => ({ t, db } = started), { raiseLimits: true });

/** Bookmarks carrying the same 100 tags each: 300,000 links under the root tag. */
const BOOKMARKS = 3000;
/**
 * What another user may wait for GET /auth/verify during any one of these requests. The
 * server runs in this process, so the CPU time the process spent during a wait is the work
 * that wait was stuck behind; a busy machine inflates wall time far more. Measured at a load
 * average of 10 to 17 on 2 cores, with the fix: at most 80 to 125 ms CPU and 500 ms wall (the
 * rename's one transaction; since it runs on a thread of its own, 82 ms wall at load 11, the
 * thread's CPU still counted here as the process's). Without it (work in one piece, counts computed on every read),
 * deleting the root held the other user 780 ms CPU and 2.6 s wall.
 */
// With the faults and firefox projects beside it in \`npm test\`, GET /tags was seen at 321–351 ms CPU (it passes
// alone at well under 250): the bound stays far below the 780 ms of the work done in one piece.
const BOUND = { cpuMs: 450, ms: 2000 };

it('the worst tags requests keep another user waiting less than the bound', { timeout: 240_000 }, async () => {
  const a = await t.user();
  const b = await t.user();
  const { rootId, carried } = await seedTagsAtCaps(db, a.userId, BOOKMARKS);
  const verify = async () => expect((await b.api('GET', '/auth/verify')).status).toBe(200);
  // The answer to GET /tags is 1.5 MB: read as bytes, since parsing it here would hold this same event loop.
  const listRaw = async (): Promise<ApiResponse> => {
    const res = await fetch(`${t.baseUrl}/tags`, { headers: { Authorization: `Bearer ${a.token}`, 'X-Forwarded-For': '10.98.0.1' } });
    return { status: res.status, headers: res.headers, body: (await res.arrayBuffer()).byteLength };
  };

  const requests: [string, () => Promise<void>][] = [
    ['GET /tags', async () => expect(await listRaw()).toMatchObject({ status: 200 })],
    ['PATCH /tags/:id (the root)', async () => expect(dataOf(await a.api('PATCH', `/tags/${rootId}`, { body: { newName: 'renamed' } }), Tag).name).toBe('renamed')],
    ['POST /tags/merge', async () => {
      const merged = dataOf(await a.api('POST', '/tags/merge', { body: { sourceTagId: carried[0], targetTagId: carried[1] } }), MergeResult);
      expect(merged).toMatchObject({ moved: BOOKMARKS, target: { count: BOOKMARKS } });
    }],
    ['DELETE /tags/:id (the root)', async () => {
      expect(dataOf(await a.api('DELETE', `/tags/${rootId}`), TagDeletedResult)).toEqual({ id: rootId, deleted: true, tags: MAX_TAGS_PER_USER - 1 });
    }],
  ];
  const longest: Record<string, { cpuMs: number; ms: number }> = {};
  for (const [name, request] of requests) {
    const { waits } = await latencyDuring(verify, request);
    longest[name] = { cpuMs: Math.round(Math.max(...waits.map((w) => w.cpuMs))), ms: Math.round(Math.max(...waits.map((w) => w.ms))) };
  }
  const withinBound = { cpuMs: expect.toSatisfy((ms: number) => ms < BOUND.cpuMs), ms: expect.toSatisfy((ms: number) => ms < BOUND.ms) };
  expect(longest).toEqual(Object.fromEntries(requests.map(([name]) => [name, withinBound])));
  expect(dataOf(await a.api('GET', '/tags'), z.array(Tag))).toEqual([]);
  expect(await count(db, 'SELECT COUNT(*) FROM bookmark_tags l JOIN bookmarks b ON b.id = l.bookmark_id WHERE b.user_id = ?', a.userId)).toBe(0);
});
