import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { BookmarkPage } from '../lib/api/bookmarks.ts';
import { apiClient } from './api.ts';
import { Load, type LoadResult, type LoadSettings, type LoadTarget, sendRequests } from './http-load.ts';
import { type ServerProcess, startBaselineServer, startShelfServer } from './processes.ts';
import { median } from './stats.ts';
import { type Row, fmtBytes, fmtCount, fmtMs, fmtPercent, fmtRate, measured, verdict } from './table.ts';
import { type BenchSettings, LIBRARY_SIZE, type Workspace } from './workspace.ts';

const SECTION = 'HTTP';
const LIST_PATH = '/bookmarks?limit=50';
/** Issue 8's targets for the list endpoint, beside a Hono app sending the same bytes. */
const MIN_SHARE_OF_HONO = 0.6;
const MAX_P99_MS = 10;
/** Issue 8's attack on the read cache: query strings that differ in fields the endpoint does not take. */
const JUNK_REQUESTS = 30_000;

type Contender = 'bare' | 'hono' | 'shelf';
const CONTENDERS: Contender[] = ['bare', 'hono', 'shelf'];

/**
 * Shelf's authenticated list under load from wrk, beside a bare node:http server
 * and a Hono app that both answer with the very bytes of Shelf's 50-bookmark page,
 * each in its own process, loaded with the same settings in turns within the same
 * run; then the save endpoint, and the server's memory before and after a flood of
 * junk query strings.
 *
 * On a shared machine a server's rate moves with what else runs in those seconds,
 * so the list is judged by ratios of runs taken one right after the other (one
 * ratio a round, their median reported with every round's), and beside the rate
 * ratio stands the ratio of server CPU time a request, which other work disturbs
 * far less. Every figure is the median over the rounds, p99 included.
 */
export async function throughputSection(ws: Workspace, settings: BenchSettings): Promise<Row[]> {
  const shelf = await startShelfServer(ws.seededDir('http'));
  const api = apiClient(shelf.url, ws.token);
  const headers = { Authorization: `Bearer ${ws.token}` };
  const pageFile = ws.file('page.json');
  const baselines: ServerProcess[] = [];
  let pageSize = 0;
  try {
    const bytes = new Uint8Array(await (await api.raw('GET', shelf.url + LIST_PATH)).arrayBuffer());
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

  try {
    const load = (server: ServerProcess, target: LoadTarget, name: string) => new Load(target, settings.load, ws.file(`${name}.lua`), server.pid);
    const list = (server: ServerProcess, base: string) =>
      new Load({ url: base + LIST_PATH, method: 'GET', headers }, settings.listLoad, ws.file(`${server.pid}.lua`), server.pid);
    const loads: Record<Contender, Load> = { bare: list(bare, `${bare.url}/v1`), hono: list(hono, `${hono.url}/v1`), shelf: list(shelf, shelf.url) };
    let rounds: Promise<Record<Contender, LoadResult[]>> | undefined;
    const results = () => (rounds ??= inTurns(loads, settings.listLoad.rounds));
    const sameBytes = `sending Shelf's ${fmtBytes(pageSize)} page`;

    const bareRow = await measured({ section: SECTION, measurement: `bare node:http ${sameBytes} (baseline)`, target: '' }, async () => ({
      result: medianFigures((await results()).bare),
      beside: '',
      verdict: '',
    }));
    const honoRow = await measured({ section: SECTION, measurement: `Hono app ${sameBytes} (baseline)`, target: '' }, async () => {
      const r = await results();
      return { result: medianFigures(r.hono), beside: `${fmtPercent(medianRatio(r.hono, r.bare, rate))} of bare`, verdict: '' };
    });
    let listRss: number | null = null;
    const listRow = await measured(
      {
        section: SECTION,
        measurement: `Shelf GET ${LIST_PATH}, ${fmtCount(LIBRARY_SIZE)} bookmarks`,
        target: `≥ ${fmtPercent(MIN_SHARE_OF_HONO)} of Hono, p99 < ${MAX_P99_MS} ms`,
      },
      async () => {
        const r = await results();
        listRss = shelf.rssBytes();
        const share = medianRatio(r.shelf, r.hono, rate);
        const p99 = median(r.shelf.map((s) => s.p99Ms));
        const cpu = medianRatio(r.shelf, r.hono, cpuPerRequest);
        return {
          result: medianFigures(r.shelf),
          beside:
            `rate ${fmtPercent(share)} of Hono's${byRound(r.shelf, (s, i) => fmtPercent(rate(s) / rate(r.hono[i]!)))} · ` +
            `CPU a request ${fmtTimes(cpu)} Hono's${byRound(r.shelf, (s, i) => fmtTimes(cpuPerRequest(s) / cpuPerRequest(r.hono[i]!)))} · ` +
            `p99${byRound(r.shelf, (s) => fmtMs(s.p99Ms))}, Hono's ${fmtMs(median(r.hono.map((s) => s.p99Ms)))} · ` +
            `rate ${fmtPercent(medianRatio(r.shelf, r.bare, rate))} of bare`,
          verdict: verdict(share >= MIN_SHARE_OF_HONO && p99 < MAX_P99_MS),
        };
      },
    );

    const saveRow = await measured(
      { section: SECTION, measurement: 'Shelf POST /bookmarks (title + description given, unique URL)', target: 'report only' },
      async () => {
        const target = { url: `${shelf.url}/bookmarks`, method: 'POST' as const, headers: { ...headers, 'Content-Type': 'application/json' } };
        const save = load(shelf, { ...target, bodyLua: newBookmarkBodyLua(Date.now().toString(36)) }, 'save');
        await save.warmUp();
        return { result: loadFigures(usable(await save.measure())), beside: '', verdict: '' };
      },
    );

    return [bareRow, honoRow, listRow, saveRow, listRssRow(listRss, bare, hono), await junkRow(shelf, headers, settings.load)];
  } finally {
    await Promise.all([bare.stop(), hono.stop(), shelf.stop()]);
  }
}

/**
 * Every contender measured once a round, in turns, each run right after its own
 * warm-up: a Node server left idle while the others are loaded starts its next
 * seconds of load slowly (its heap has been shrunk), which would count against
 * whichever server waited longest. Hono runs between the other two, and the order
 * turns round every round, so that Shelf's run and Hono's are always neighbours and
 * neither always comes first.
 */
async function inTurns(loads: Record<Contender, Load>, rounds: number): Promise<Record<Contender, LoadResult[]>> {
  const results: Record<Contender, LoadResult[]> = { bare: [], hono: [], shelf: [] };
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse()) {
      await loads[name].warmUp();
      results[name].push(usable(await loads[name].measure()));
    }
  }
  return results;
}

const rate = (r: LoadResult): number => r.requestsPerSecond;
const cpuPerRequest = (r: LoadResult): number => r.cpuUsPerRequest;

/** The median over rounds of a figure of one contender over the same figure of another, each ratio from runs taken one after the other. */
const medianRatio = (of: LoadResult[], beside: LoadResult[], figure: (r: LoadResult) => number): number =>
  median(of.map((r, i) => figure(r) / figure(beside[i]!)));

/** " (by round: a, b, c)", or nothing for a single round. */
const byRound = (runs: LoadResult[], show: (r: LoadResult, round: number) => string): string =>
  runs.length > 1 ? ` (by round: ${runs.map(show).join(', ')})` : ` ${show(runs[0]!, 0)}`;

const fmtTimes = (ratio: number): string => `${ratio.toFixed(2)} ×`;

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

const loadFigures = (r: LoadResult): string =>
  `${fmtRate(r.requestsPerSecond)} · p50 ${fmtMs(r.p50Ms)} · p99 ${fmtMs(r.p99Ms)} · server CPU ${r.cpuUsPerRequest.toFixed(1)} µs/req`;

/** Each figure the median of its rounds. */
const medianFigures = (runs: LoadResult[]): string =>
  loadFigures({
    ...runs[0]!,
    requestsPerSecond: median(runs.map(rate)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    cpuUsPerRequest: median(runs.map(cpuPerRequest)),
  });

/**
 * What the extension sends on a save, as a Lua expression of the request's number
 * `n`, with a URL never seen before, so that every request creates a bookmark.
 */
const newBookmarkBodyLua = (stamp: string): string =>
  `string.format('{"url":"https://bench-%d.example.org/articles/${stamp}-%d","title":"Saved under load, number %d",` +
  `"description":"A page saved by the benchmark with its title and description given, so that no page fetch happens.",` +
  `"tags":["bench","bench/batch-%d"]}', n % 50, n, n, n % 20)`;
