import { MAX_TAGS_PER_BOOKMARK, MAX_TAGS_PER_USER } from '../lib/api/bookmarks.ts';
import { MAX_BULK } from '../lib/api/bulk.ts';
import { latencyDuring } from '../test/support/latency.ts';
import { seedTagsAtCaps } from '../test/support/tag-library.ts';
import { apiClient } from './api.ts';
import { seedNewUser } from './new-user.ts';
import { otherUserAlone } from './other-user.ts';
import { startShelfServer } from './processes.ts';
import { median, percentile } from './stats.ts';
import { type Row, fmtCount, fmtMs, measured, verdict } from './table.ts';
import type { Workspace } from './workspace.ts';

const SECTION = 'Tags';
/** Bookmarks of the user at the caps, each carrying the same 100 tags. */
const TAGGED_BOOKMARKS = 3000;
/** How long another user may wait while the worst tags requests run (docs/api-decisions.md, "Tag caps"). */
const MAX_OTHER_P99_MS = 50;

/**
 * Issue 8 point 3: the worst tags requests the caps allow, from a user with
 * MAX_TAGS_PER_USER tags under one root (8 levels deep) and 3,000 bookmarks of 100 tags
 * each (300,000 links), each timed while another user (the bench library's) calls
 * GET /auth/verify one request after another: that user's p50 and p99 meanwhile, beside
 * the same figures with nothing else running.
 */
export async function tagsSection(ws: Workspace): Promise<Row[]> {
  const dir = ws.seededDir('tags');
  const { token, rootId, carried, bookmarkIds } = await seedUserAtCaps(dir);
  const shelf = await startShelfServer(dir);
  try {
    const a = apiClient(shelf.url, token);
    const other = apiClient(shelf.url, ws.token);
    const verify = () => other.call('GET', '/auth/verify');
    const beside = await otherUserAlone(verify);
    const requests: [string, () => Promise<unknown>][] = [
      [`GET /tags (${fmtCount(MAX_TAGS_PER_USER)} tags)`, () => a.raw('GET', `${shelf.url}/tags`).then((res) => res.arrayBuffer())],
      [`PATCH /tags/:id, the root of ${fmtCount(MAX_TAGS_PER_USER)} tags`, () => a.call('PATCH', `/tags/${rootId}`, { newName: 'renamed' })],
      [`POST /tags/merge, a tag of ${fmtCount(TAGGED_BOOKMARKS)} bookmarks`, () => a.call('POST', '/tags/merge', { sourceTagId: carried[0], targetTagId: carried[1] })],
      // After the merge the bookmarks have room for one more tag; the user is at the cap, so it is an existing one.
      ['POST /bookmarks/bulk/tag, 50 bookmarks', () => a.call('POST', '/bookmarks/bulk/tag', { ids: bookmarkIds.slice(0, MAX_BULK), name: 'renamed' })],
      [`DELETE /tags/:id, the root (${fmtCount(TAGGED_BOOKMARKS * MAX_TAGS_PER_BOOKMARK)} links)`, () => a.call('DELETE', `/tags/${rootId}`)],
    ];
    const rows: Row[] = [];
    for (const [label, request] of requests) {
      rows.push(
        await measured({ section: SECTION, measurement: `worst requests: ${label}`, target: `other user p99 ≤ ${MAX_OTHER_P99_MS} ms`, beside }, async () => {
          const { ms, waits } = await latencyDuring(verify, request);
          const times = waits.map((w) => w.ms);
          const p99 = percentile(times, 99);
          return {
            result: `${fmtMs(ms)}; other user meanwhile: p50 ${fmtMs(median(times))} · p99 ${fmtMs(p99)} (${times.length} requests)`,
            beside,
            verdict: verdict(p99 <= MAX_OTHER_P99_MS),
          };
        }),
      );
    }
    return rows;
  } finally {
    await shelf.stop();
  }
}

/** A new user with the costliest tags the caps allow, written before the server starts. */
const seedUserAtCaps = (dir: string) =>
  seedNewUser(dir, { name: 'Tags at the caps', email: 'tags@example.com' }, (db, userId) => seedTagsAtCaps(db, userId, TAGGED_BOOKMARKS));
