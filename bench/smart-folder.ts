import type { Rules } from '../lib/api/smart-folders.ts';
import { Evaluation, SmartFolder } from '../lib/api/smart-folders.ts';
import { EVALUATION_LIMITS } from '../server/smart-folders/limits.ts';
import { BOOKMARK_COLUMNS } from '../server/store/sqlite/bookmark-rows.ts';
import { type ApiClient, apiClient } from './api.ts';
import { RARE_CLICKS } from './library.ts';
import { startShelfServer } from './processes.ts';
import { median, percentile, timed } from './stats.ts';
import { type Row, fmtCount, fmtMs, measured, verdict } from './table.ts';
import type { BenchSettings, Workspace } from './workspace.ts';

const SECTION = 'Smart folder';
const MAX_PAGE_MS = 20;
const WARMUP_REQUESTS = 5;

/**
 * Rules no index narrows, so evaluation takes the general scan over the newest
 * bookmarks: one where the first 200 scanned fill the page, one where the page
 * scans the whole 5,000 for a few matches.
 */
const FOLDERS: { label: string; minClicks: number }[] = [
  { label: 'every bookmark matches (clickCount ≥ 0)', minClicks: 0 },
  { label: `rare matches (clickCount ≥ ${RARE_CLICKS}), scans 5,000`, minClicks: RARE_CLICKS },
];

const rulesOf = (minClicks: number): Rules => ({
  match: 'all',
  conditions: [{ field: 'clickCount', operator: 'gte', value: String(minClicks) }],
});

/** The same selection in one SQLite query: the newest 5,000, those with enough clicks, one page of them. */
const RAW_SCAN = `SELECT ${BOOKMARK_COLUMNS} FROM (
    SELECT * FROM bookmarks WHERE user_id = @userId AND deleted_at IS NULL ORDER BY created_at DESC, seq DESC LIMIT ${EVALUATION_LIMITS.scanLimit}
  ) b WHERE b.click_count >= @minClicks LIMIT ${EVALUATION_LIMITS.pageSize}`;

/**
 * Issue 3: one evaluation page of a general-strategy smart folder over the seeded
 * library, timed request by request (it is a heavy endpoint; --raise-limits lifts
 * its limit), beside the same selection done by one SQLite query.
 */
export async function smartFolderSection(ws: Workspace, settings: BenchSettings): Promise<Row[]> {
  const raw = FOLDERS.map(({ minClicks }) => ws.rawRead(RAW_SCAN, { minClicks }));
  const shelf = await startShelfServer(ws.seededDir('smart-folder'));
  try {
    const api = apiClient(shelf.url, ws.token);
    const rows: Row[] = [];
    for (const [i, folder] of FOLDERS.entries()) {
      const beside = `SQLite, same selection in one query: ${fmtMs(raw[i]!.ms)} (${fmtCount(raw[i]!.rows)} rows)`;
      rows.push(
        await measured(
          {
            section: SECTION,
            measurement: `evaluation page, ${folder.label}`,
            target: `≤ ${MAX_PAGE_MS} ms (p99)`,
            beside,
          },
          async () => {
            const created = SmartFolder.parse(await api.call('POST', '/smart-folders', { name: `Bench: ${folder.label}`, rules: rulesOf(folder.minClicks) }));
            const { times, returned } = await timeEvaluations(api, created.id, settings.evaluations);
            const p99 = percentile(times, 99);
            return {
              result: `median ${fmtMs(median(times))} · p99 ${fmtMs(p99)} (${times.length} requests, ${fmtCount(returned)} returned)`,
              beside,
              verdict: verdict(p99 <= MAX_PAGE_MS),
            };
          },
        ),
      );
    }
    return rows;
  } finally {
    await shelf.stop();
  }
}

/**
 * One request at a time, each a fresh evaluation (no cursor): the latency a user
 * waits for a page, up to its body read; checking its shape is not timed.
 */
async function timeEvaluations(api: ApiClient, folderId: string, count: number): Promise<{ times: number[]; returned: number }> {
  const evaluate = () => api.call('GET', `/smart-folders/${folderId}/bookmarks`);
  for (let i = 0; i < WARMUP_REQUESTS; i++) Evaluation.parse(await evaluate());
  const times: number[] = [];
  let returned = 0;
  for (let i = 0; i < count; i++) {
    const { ms, value } = await timed(evaluate);
    times.push(ms);
    returned = Evaluation.parse(value).bookmarks.length;
  }
  return { times, returned };
}
