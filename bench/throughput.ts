import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { BookmarkPage } from '../lib/api/bookmarks.ts';
import { apiClient } from './api.ts';
import { type LoadResult, type LoadSettings, measureLoad, sendRequests } from './http-load.ts';
import { type ServerProcess, startBaselineServer, startShelfServer } from './processes.ts';
import { type Row, fmtBytes, fmtCount, fmtMs, fmtPercent, fmtRate, measured, verdict } from './table.ts';
import { type BenchSettings, LIBRARY_SIZE, type Workspace } from './workspace.ts';

const SECTION = 'HTTP';
const LIST_PATH = '/bookmarks?limit=50';
/** Issue 8's targets for the list endpoint, beside a Hono app sending the same bytes. */
const MIN_SHARE_OF_HONO = 0.6;
const MAX_P99_MS = 10;
/** Issue 8's attack on the read cache: query strings that differ in fields the endpoint does not take. */
const JUNK_REQUESTS = 30_000;

/**
 * The authenticated list and save endpoints under load from wrk, beside a bare
 * node:http server and a Hono app that both answer with the very bytes of Shelf's
 * 50-bookmark page, loaded with the same settings in the same run; then the
 * server's memory before and after a flood of junk query strings.
 */
export async function throughputSection(ws: Workspace, settings: BenchSettings): Promise<Row[]> {
  const shelf = await startShelfServer(ws.seededDir('http'));
  const api = apiClient(shelf.url, ws.token);
  const headers = { Authorization: `Bearer ${ws.token}` };
  const load = (target: Parameters<typeof measureLoad>[0], name: string) => measureLoad(target, settings.load, ws.file(`${name}.lua`));

  const pageFile = ws.file('page.json');
  const baselines: ServerProcess[] = [];
  let pageSize = 0;
  try {
    const page = await api.raw('GET', shelf.url + LIST_PATH);
    const bytes = new Uint8Array(await page.arrayBuffer());
    const { data } = BookmarkPage.parse((JSON.parse(new TextDecoder().decode(bytes)) as { data: unknown }).data);
    if (data.length !== 50) throw new Error(`the list answered ${data.length} bookmarks, expected 50`);
    writeFileSync(pageFile, bytes);
    pageSize = bytes.length;
    baselines.push(...(await Promise.all([startBaselineServer('bare', pageFile), startBaselineServer('hono', pageFile)])));
  } catch (err) {
    await Promise.all([shelf.stop(), ...baselines.map((b) => b.stop())]);
    throw err;
  }
  const [bare, hono] = baselines as [ServerProcess, ServerProcess];
  const sameBytes = `Shelf's ${fmtBytes(pageSize)} page`;

  try {
    let bareResult: LoadResult | null = null;
    let honoResult: LoadResult | null = null;
    const share = (r: LoadResult, of: LoadResult | null) => (of === null ? NaN : r.requestsPerSecond / of.requestsPerSecond);

    const bareRow = await measured({ section: SECTION, measurement: `bare node:http sending ${sameBytes} (baseline)`, target: '' }, async () => {
      bareResult = usable(await load({ url: `${bare.url}/v1/bookmarks?limit=50`, method: 'GET', headers }, 'bare'));
      return { result: loadFigures(bareResult), beside: '', verdict: '' };
    });
    const honoRow = await measured({ section: SECTION, measurement: `Hono app sending ${sameBytes} (baseline)`, target: '' }, async () => {
      honoResult = usable(await load({ url: `${hono.url}/v1/bookmarks?limit=50`, method: 'GET', headers }, 'hono'));
      return { result: loadFigures(honoResult), beside: `${fmtPercent(share(honoResult, bareResult))} of bare`, verdict: '' };
    });

    let listRss: number | null = null;
    const listRow = await measured(
      {
        section: SECTION,
        measurement: `Shelf GET ${LIST_PATH}, ${fmtCount(LIBRARY_SIZE)} bookmarks`,
        target: `≥ ${fmtPercent(MIN_SHARE_OF_HONO)} of Hono, p99 < ${MAX_P99_MS} ms`,
      },
      async () => {
        const list = usable(await load({ url: shelf.url + LIST_PATH, method: 'GET', headers }, 'list'));
        listRss = shelf.rssBytes();
        const ratio = share(list, honoResult);
        return {
          result: loadFigures(list),
          beside: `${fmtPercent(ratio)} of Hono · ${fmtPercent(share(list, bareResult))} of bare`,
          verdict: verdict(ratio >= MIN_SHARE_OF_HONO && list.p99Ms < MAX_P99_MS),
        };
      },
    );

    const saveRow = await measured(
      { section: SECTION, measurement: 'Shelf POST /bookmarks (title + description given, unique URL)', target: 'report only' },
      async () => {
        const target = { url: `${shelf.url}/bookmarks`, method: 'POST' as const, headers: { ...headers, 'Content-Type': 'application/json' } };
        const save = usable(await load({ ...target, bodyLua: newBookmarkBodyLua(Date.now().toString(36)) }, 'save'));
        return { result: loadFigures(save), beside: `${fmtPercent(share(save, honoResult))} of Hono`, verdict: '' };
      },
    );

    return [bareRow, honoRow, listRow, saveRow, listRssRow(listRss, bare, hono), await junkRow(shelf, headers, settings.load)];
  } finally {
    await Promise.all([bare.stop(), hono.stop(), shelf.stop()]);
  }
}

function listRssRow(listRss: number | null, bare: ServerProcess, hono: ServerProcess): Row {
  const [bareRss, honoRss] = [bare.rssBytes(), hono.rssBytes()];
  return {
    section: SECTION,
    measurement: 'Shelf RSS after the list load',
    result: listRss === null ? 'not measured (no list load)' : fmtBytes(listRss),
    beside: bareRss === null || honoRss === null ? '' : `bare: ${fmtBytes(bareRss)} · Hono: ${fmtBytes(honoRss)}`,
    target: 'report only',
    verdict: '',
  };
}

/** RSS after the junk: what the read cache, keyed on validated input, must not grow with. */
function junkRow(shelf: ServerProcess, headers: Record<string, string>, load: LoadSettings): Promise<Row> {
  return measured(
    { section: SECTION, measurement: `Shelf RSS after ${fmtCount(JUNK_REQUESTS)} GET /bookmarks/domains?<junk>`, target: 'report only' },
    async () => {
      const before = shelf.rssBytes();
      const junk = () => randomBytes(100).toString('hex');
      await sendRequests((i) => `${shelf.url}/bookmarks/domains?${i}${junk()}=${junk()}`, headers, JUNK_REQUESTS, load.connections);
      const after = shelf.rssBytes();
      return {
        result: after === null ? 'not measured (no /proc)' : fmtBytes(after),
        beside: before === null ? '' : `before them: ${fmtBytes(before)}`,
        verdict: '',
      };
    },
  );
}

/** A figure spoiled by errors is not a figure: the row says what went wrong instead. */
function usable(result: LoadResult): LoadResult {
  if (result.failures.length > 0) throw new Error(`under load: ${result.failures.join(', ')} (${fmtCount(result.ok)} ok)`);
  return result;
}

const loadFigures = (r: LoadResult): string => `${fmtRate(r.requestsPerSecond)} · p50 ${fmtMs(r.p50Ms)} · p99 ${fmtMs(r.p99Ms)}`;

/**
 * What the extension sends on a save, as a Lua expression of the request's number
 * `n`, with a URL never seen before, so that every request creates a bookmark.
 */
const newBookmarkBodyLua = (stamp: string): string =>
  `string.format('{"url":"https://bench-%d.example.org/articles/${stamp}-%d","title":"Saved under load, number %d",` +
  `"description":"A page saved by the benchmark with its title and description given, so that no page fetch happens.",` +
  `"tags":["bench","bench/batch-%d"]}', n % 50, n, n, n % 20)`;
