import { latencyDuring } from '../test/support/latency.ts';
import { openRawDb } from '../test/support/raw-db.ts';
import { startServerProcess } from '../test/support/server-process.ts';
import { apiClient } from './api.ts';
import { seedNewUser } from './new-user.ts';
import { otherUserAlone } from './other-user.ts';
import { startShelfServerOn } from './processes.ts';
import { median, percentile } from './stats.ts';
import { type Row, fmtCount, fmtMs, measured, verdict } from './table.ts';
import type { Workspace } from './workspace.ts';

const SECTION = 'Link check';
const BOOKMARKS = 10_000;
/** Loopback addresses 127.1.0.1 … 127.1.0.200, one port: 200 hosts to the checker's pace. */
const HOSTS = 200;
/** The checker's tuning for this run: a host asked once every PACE_MS, CONCURRENCY checks in flight, a day's cap that lets all finish. */
const PACE_MS = 500;
const CONCURRENCY = 8;
/** How long another user may wait while the checker runs (issue 18). */
const MAX_OTHER_P99_MS = 50;
const POLL_MS = 100;

/**
 * Issue 18 point 3: the server's link checker re-checking 10,000 never-checked bookmarks of one
 * account, 50 on each of 200 local hosts (bench/link-hosts-server.ts, in a process of its own),
 * at the pace and concurrency the flags set, while the bench library's user calls
 * GET /bookmarks?limit=50 one request after another: the time from the server's start to the last
 * check written (read from the database), beside the least the pace allows, and that user's p99
 * meanwhile beside the same with the checker off.
 */
export async function linkCheckSection(ws: Workspace): Promise<Row[]> {
  const dir = ws.seededDir('link-check');
  const hosts = await startServerProcess('bench/link-hosts-server.ts', []);
  try {
    const { userId } = await seedCheckedUser(dir, new URL(hosts.url).port);
    const withFlags = (flags: string[]) => startShelfServerOn(['--data', dir, ...flags]);
    const probeOf = (url: string) => {
      const other = apiClient(url, ws.token);
      return () => other.call('GET', '/bookmarks?limit=50');
    };
    const quiet = await withFlags(['--no-link-check']);
    const beside = await otherUserAlone(probeOf(quiet.url)).finally(() => quiet.stop());
    const least = (BOOKMARKS / HOSTS - 1) * PACE_MS;
    return [
      await measured(
        {
          section: SECTION,
          measurement: `${fmtCount(BOOKMARKS)} bookmarks never checked, ${HOSTS} local hosts, pace ${PACE_MS} ms a host, ${CONCURRENCY} at once: start → all checked`,
          target: `other user's GET /bookmarks?limit=50 p99 ≤ ${MAX_OTHER_P99_MS} ms`,
          beside,
        },
        async () => {
          const db = openRawDb({ dataDir: dir, databaseUrl: null });
          const due = async () =>
            (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM bookmarks WHERE user_id = ? AND link_checked_at = 0', userId))!.n;
          const started = performance.now();
          const shelf = await withFlags([
            '--link-check',
            '--allow-private-fetch',
            `--link-check-pace-ms=${PACE_MS}`,
            `--link-check-concurrency=${CONCURRENCY}`,
            `--link-check-daily-cap=${BOOKMARKS}`,
          ]);
          try {
            const { value: finishedMs, waits } = await latencyDuring(probeOf(shelf.url), async () => {
              while ((await due()) > 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
              return performance.now() - started;
            });
            const ok = (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM bookmarks WHERE user_id = ? AND link_status = 'ok'", userId))!.n;
            const times = waits.map((w) => w.ms);
            const p99 = percentile(times, 99);
            return {
              result:
                `${fmtMs(finishedMs)} (${fmtCount(ok)} found ok; the pace allows no less than ${fmtMs(least)}); ` +
                `other user meanwhile: p50 ${fmtMs(median(times))} · p99 ${fmtMs(p99)} (${fmtCount(times.length)} requests)`,
              beside,
              verdict: verdict(p99 <= MAX_OTHER_P99_MS && ok === BOOKMARKS),
            };
          } finally {
            await shelf.stop();
            await db.close();
          }
        },
      ),
    ];
  } finally {
    await hosts.stop();
  }
}

/**
 * A new user holding a copy of the bench library's bookmarks, each URL moved to one of the local
 * hosts and never checked; the bench library's own bookmarks count as checked just now, so that
 * the checker works for the new user alone.
 */
async function seedCheckedUser(dir: string, port: string): Promise<{ userId: string }> {
  const now = Date.now();
  return seedNewUser(dir, { name: 'Links to check', email: 'links@example.com' }, async (db, userId) => {
    await db.run('UPDATE bookmarks SET link_checked_at = ?', now);
    const url = `'http://127.1.0.' || (seq % ${HOSTS} + 1) || ':${port}/page/' || seq`;
    const copied = await db.run(
      `INSERT INTO bookmarks (id, user_id, url, url_key, title, description, type, domain, metadata_status, link_status,
         last_checked_at, created_at, updated_at, link_checked_at)
       SELECT 'bm_links_' || seq, ?, ${url}, ${url}, title, description, type, '127.1.0.' || (seq % ${HOSTS} + 1), 'complete', 'unchecked',
         0, created_at, updated_at, 0
       FROM bookmarks WHERE deleted_at IS NULL ORDER BY seq LIMIT ${BOOKMARKS}`,
      userId,
    );
    if (copied !== BOOKMARKS) throw new Error(`the library gave ${copied} bookmarks to check, not ${BOOKMARKS}`);
    return {};
  });
}
