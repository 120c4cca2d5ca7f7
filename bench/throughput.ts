import { BookmarkPage } from '../lib/api/bookmarks.ts';
import { apiClient } from './api.ts';
import { type LoadResult, measureLoad } from './http-load.ts';
import { type ServerProcess, startBareServer, startShelfServer } from './processes.ts';
import { type Row, fmtBytes, fmtCount, fmtMs, fmtPercent, fmtRate, measured, verdict } from './table.ts';
import { type BenchSettings, LIBRARY_SIZE, type Workspace } from './workspace.ts';

const SECTION = 'HTTP';
const LIST_PATH = '/bookmarks?limit=50';
/** Issue 2's targets for the list endpoint. */
const MIN_SHARE_OF_BARE = 0.35;
const MAX_P99_MS = 10;

/**
 * Issue 2: the authenticated list and save endpoints under load, beside a bare
 * node:http server loaded with the same settings in the same run.
 */
export async function throughputSection(ws: Workspace, settings: BenchSettings): Promise<Row[]> {
  const [bare, shelf] = await Promise.all([startBareServer(), startShelfServer(ws.seededDir('http'))]);
  try {
    const api = apiClient(shelf.url, ws.token);
    const headers = { Authorization: `Bearer ${ws.token}` };

    let bareResult: LoadResult | null = null;
    const bareRow = await measured(
      { section: SECTION, measurement: 'bare node:http, constant JSON (baseline)', target: '' },
      async () => {
        bareResult = usable(await measureLoad({ url: `${bare.url}/`, method: 'GET', headers }, settings.load));
        return { result: loadFigures(bareResult), beside: '', verdict: '' };
      },
    );
    const share = (r: LoadResult) => (bareResult === null ? NaN : r.requestsPerSecond / bareResult.requestsPerSecond);

    let listRss: number | null = null;
    const listRow = await measured(
      {
        section: SECTION,
        measurement: `GET ${LIST_PATH}, ${fmtCount(LIBRARY_SIZE)} bookmarks`,
        target: `≥ ${fmtPercent(MIN_SHARE_OF_BARE)} of bare, p99 < ${MAX_P99_MS} ms`,
      },
      async () => {
        const page = BookmarkPage.parse(await api.call('GET', LIST_PATH));
        if (page.data.length !== 50) throw new Error(`the list answered ${page.data.length} bookmarks, expected 50`);
        const list = usable(await measureLoad({ url: shelf.url + LIST_PATH, method: 'GET', headers }, settings.load));
        listRss = shelf.rssBytes();
        const ratio = share(list);
        return {
          result: loadFigures(list),
          beside: `${fmtPercent(ratio)} of bare`,
          verdict: verdict(ratio >= MIN_SHARE_OF_BARE && list.p99Ms < MAX_P99_MS),
        };
      },
    );

    const saveRow = await measured(
      { section: SECTION, measurement: 'POST /bookmarks (title + description given, unique URL)', target: 'report only' },
      async () => {
        const body = newBookmarkBodies();
        await api.call('POST', '/bookmarks', JSON.parse(body()));
        const save = usable(
          await measureLoad(
            { url: `${shelf.url}/bookmarks`, method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body },
            settings.load,
          ),
        );
        return { result: loadFigures(save), beside: `${fmtPercent(share(save))} of bare`, verdict: '' };
      },
    );

    return [bareRow, listRow, saveRow, rssRow(listRss, bare)];
  } finally {
    await Promise.all([bare.stop(), shelf.stop()]);
  }
}

function rssRow(listRss: number | null, bare: ServerProcess): Row {
  const bareRss = bare.rssBytes();
  return {
    section: SECTION,
    measurement: 'server RSS after the list load',
    result: listRss === null ? 'not measured (no list load)' : fmtBytes(listRss),
    beside: bareRss === null ? '' : `bare server: ${fmtBytes(bareRss)}`,
    target: 'report only',
    verdict: '',
  };
}

/** A figure spoiled by errors is not a figure: the row says what went wrong instead. */
function usable(result: LoadResult): LoadResult {
  if (result.failures.length > 0) throw new Error(`under load: ${result.failures.join(', ')} (${fmtCount(result.ok)} ok)`);
  return result;
}

const loadFigures = (r: LoadResult): string => `${fmtRate(r.requestsPerSecond)} · p50 ${fmtMs(r.p50Ms)} · p99 ${fmtMs(r.p99Ms)}`;

/** What the extension sends on a save, with a URL never seen before, so that every request creates a bookmark. */
function newBookmarkBodies(): () => string {
  let n = 0;
  const stamp = Date.now().toString(36);
  return () => {
    n++;
    return JSON.stringify({
      url: `https://bench-${n % 50}.example.org/articles/${stamp}-${n}`,
      title: `Saved under load, number ${n}`,
      description: 'A page saved by the benchmark with its title and description given, so that no page fetch happens.',
      tags: ['bench', `bench/batch-${n % 20}`],
    });
  };
}
