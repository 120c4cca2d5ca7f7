import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import type { ExtensionBrowser } from '../test/browser/support.ts';
import { refreshesOf } from './frames.ts';
import { median } from './stats.ts';
import { fmtCount, fmtMs } from './table.ts';
import type { Workspace } from './workspace.ts';

/** What the extension sections share: the hello-world baseline page and a proxy that counts the extension's requests. */

const HELLO_DIR = fileURLToPath(new URL('./hello-page', import.meta.url));
/** Requests may trail the visible answer (a cache refresh): they count too. */
const SETTLE_MS = 1_000;

/** The baseline page, built like the extension's pages; answers its folder, to load into the extension (`extraPages`). */
export async function buildHelloPage(ws: Workspace): Promise<string> {
  const helloDir = ws.file('hello-page');
  await build({
    root: HELLO_DIR,
    base: './',
    configFile: false,
    logLevel: 'warn',
    plugins: [react(), tailwindcss()],
    build: { outDir: helloDir, emptyOutDir: true },
  });
  return helloDir;
}

export function describeRequests(requests: string[]): string {
  if (requests.length === 0) return '0';
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
  return `${requests.length} (${[...counts].map(([r, n]) => (n > 1 ? `${n} × ${r}` : r)).join(', ')})`;
}

export interface CountingProxy {
  origin: string;
  /**
   * Runs work, waits for trailing requests, and answers "METHOD /path" for each request that reached the server
   * meanwhile; with `queryNames`, "METHOD /path?name&name" (the query's parameter names, not their values), which
   * tells a list page (`?limit&sortBy`) from a look-up by URL (`?limit&url`).
   */
  count(work: () => Promise<void>, options?: { queryNames: true }): Promise<string[]>;
  /** How many answers so far were 429 (the server refused a request over its limits). */
  refused(): number;
  close(): Promise<void>;
}

/** A pass-through HTTP proxy in front of the server: every request the extension sends is seen here. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const seen: { line: string; queryNames: string }[] = [];
  let refused = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', target);
    seen.push({ line: `${req.method} ${url.pathname}`, queryNames: [...new Set(url.searchParams.keys())].sort().join('&') });
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      if (answer.statusCode === 429) refused++;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async count(work, options) {
      const start = seen.length;
      await work();
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      return seen.slice(start).map(({ line, queryNames }) => (options?.queryNames && queryNames ? `${line}?${queryNames}` : line));
    },
    refused: () => refused,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * In every extension page before its scripts: notes performance.now() when the
 * page is ready for the user: `readySelector` matches, or (the hello-world page) its Save button is there.
 */
export const readyProbe = (readySelector: string): string => `(() => {
  if (location.protocol !== 'chrome-extension:' && location.protocol !== 'moz-extension:') return;
  const observer = new MutationObserver(() => {
    if (window.__readyAt !== undefined) return;
    const ready = document.querySelector(${JSON.stringify(readySelector)}) || Array.from(document.querySelectorAll('button')).some((b) => b.textContent.trim() === 'Save');
    if (!ready) return;
    window.__readyAt = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { subtree: true, childList: true });
})();`;

type Probed = { __readyAt?: number };

/** A User Timing mark of the page: the median of its time over the loads that had it, and in how many it came. */
export interface MarkTimes {
  median: number;
  seen: number;
}

/**
 * Medians of fresh loads of a page and the hello-world page (readyProbe's moment), alternating so that machine
 * noise falls on both, after warm-ups of each; and of each page's performance entries named in `marks` (User
 * Timing marks, 'first-contentful-paint'; those that came within 200 ms of the ready moment), in the same
 * loads, also load by load for the page. `beforePage` runs before each load of the page.
 */
export async function timeLoads(
  browser: ExtensionBrowser | LoadOnce,
  pageUrl: string,
  helloUrl: string,
  { loads, warmups, marks = [], beforePage }: { loads: number; warmups: number; marks?: readonly string[]; beforePage?: () => Promise<void> },
): Promise<{ page: number; hello: number; marks: Record<'page' | 'hello', Record<string, MarkTimes>>; pageLoads: Record<string, number | undefined>[] }> {
  const seen = { page: new Map<string, number[]>(marks.map((name) => [name, []])), hello: new Map<string, number[]>(marks.map((name) => [name, []])) };
  const pageLoads: Record<string, number | undefined>[] = [];
  const load = typeof browser === 'function' ? browser : loadInChromium(browser);
  const once = async (which: 'page' | 'hello', counted = false) => {
    if (which === 'page') await beforePage?.();
    const { at, times } = await load(which === 'page' ? pageUrl : helloUrl, counted ? marks : []);
    times.forEach((time, i) => time !== undefined && seen[which].get(marks[i]!)!.push(time));
    if (counted && marks.length > 0 && which === 'page') pageLoads.push(Object.fromEntries(marks.map((name, i) => [name, times[i]])));
    return at;
  };
  for (let i = 0; i < warmups; i++) {
    await once('page');
    await once('hello');
  }
  const times = { page: [] as number[], hello: [] as number[] };
  for (let i = 0; i < loads; i++) {
    const order = i % 2 === 0 ? (['page', 'hello'] as const) : (['hello', 'page'] as const);
    for (const which of order) times[which].push(await once(which, true));
  }
  const medians = (found: Map<string, number[]>) =>
    Object.fromEntries([...found].map(([name, list]) => [name, { median: list.length > 0 ? median(list) : Number.NaN, seen: list.length }]));
  return { page: median(times.page), hello: median(times.hello), marks: { page: medians(seen.page), hello: medians(seen.hello) }, pageLoads };
}

/**
 * One fresh load of a page in a tab of its own: when it was ready (readyProbe's moment, since navigation start),
 * and the performance entries named in `marks` that came within 200 ms of it.
 */
export type LoadOnce = (url: string, marks: readonly string[]) => Promise<{ at: number; times: (number | undefined)[] }>;

/** LoadOnce in the Chromium of test/browser/support.ts, its pages probed by readyProbe (an init script). */
const loadInChromium =
  (browser: ExtensionBrowser): LoadOnce =>
  async (url, marks) => {
    const page = await browser.context.newPage();
    await page.goto(url);
    const at = await (await page.waitForFunction(() => (window as unknown as Probed).__readyAt, undefined, { timeout: 30_000 })).jsonValue();
    let times: (number | undefined)[] = [];
    if (marks.length > 0) {
      await page.waitForTimeout(200);
      times = await page.evaluate((names) => names.map((n) => performance.getEntriesByName(n)[0]?.startTime), [...marks]);
    }
    await page.close();
    return { at: at!, times };
  };

/** Where the extension API answers a script (Firefox: any extension page; Chromium's is its worker). */
export interface ExtensionPageScope {
  evaluate(expression: string): Promise<unknown>;
}

/**
 * The saved-pages index's own record of its sync (the index is stored as its JSON text): whether its first sync has ended, and how far it came.
 * Plain JavaScript text: a function compiled by tsx would carry its __name helper into the worker.
 */
const SYNC_STATE = `chrome.storage.local.get(['savedIndex', 'indexSync']).then(({ savedIndex, indexSync }) => ({
  ended: Boolean(savedIndex && JSON.parse(savedIndex).syncedAt !== null && indexSync && !indexSync.running),
  progress: indexSync ? indexSync.fetched + ' of ' + indexSync.total + ' bookmarks fetched in ' + indexSync.requests + ' requests' : 'not started',
}))`;
const SYNC_WAIT_MS = 300_000;

/**
 * Waits out the worker's first sync of the saved-pages index (a page of /bookmarks after another) that a
 * sign-in starts: its requests would be counted as the page's and would spend the page's request budget.
 * The index says when it has ended (a pause in the requests is not the end of it: the sync spends the
 * background's share of the minute in a burst, then waits the rest of the minute for the next slot); then
 * no request for 2 s. Bounded: 5 minutes, then an error saying how far the sync came.
 */
export async function quiet(proxy: CountingProxy, browser: ExtensionBrowser | ExtensionPageScope): Promise<void> {
  const deadline = Date.now() + SYNC_WAIT_MS;
  const scope = async () => ('worker' in browser ? browser.worker() : browser);
  let progress = 'not read';
  while (Date.now() < deadline) {
    const state = (await (await scope()).evaluate(SYNC_STATE)) as { ended: boolean; progress: string };
    progress = state.progress;
    if (state.ended && (await proxy.count(() => new Promise((resolve) => setTimeout(resolve, 2_000)))).length === 0) return;
    if (!state.ended) await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`the saved-page index had not ended its sync ${SYNC_WAIT_MS / 60_000} minutes after signing in (${progress})`);
}

/** The page's used JS heap after a full garbage collection (DevTools protocol). */
export async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value;
    if (used === undefined) throw new Error('Chromium reported no JSHeapUsedSize');
    return used;
  } finally {
    await cdp.detach();
  }
}

/** A wheel's notch as Chromium scrolls it (100 px at 1×, 120 px on many mice): one a frame is a steady spin. */
export const WHEEL_STEP_PX = 120;

export interface ScrolledFrames {
  /** Each frame's length (requestAnimationFrame to requestAnimationFrame), in order. */
  frames: number[];
  /** How long the page's main thread was busy in all (Chromium's TaskDuration; a loaded machine stretches it). */
  busyMs: number;
  /** The CPU time of the page's main thread in all (Chromium's ThreadTime: what a waiting thread does not add). */
  cpuMs: number;
  /** The list items the page added during the scroll, and the most added for one frame. */
  mounted: number;
  mostMounted: number;
  /** Frames that painted part of the view with no item drawn there yet. */
  gaps: number;
}

/**
 * Scrolls the list in the element `selector` finds from top to bottom, `step` px a frame. Each step scrolls
 * from a task after a frame, as a wheel's event arrives between frames: the next frame runs the page's scroll
 * handler (which draws the items for the new position) before its animation callbacks and its paint, so each
 * frame counted is one whose items are drawn, and the callback checks that they cover the view (the items are
 * absolutely placed `li`s whose style gives their top and height).
 * Plain JavaScript text: a function compiled by tsx would carry its __name helper into the page.
 */
export async function scrollFrames(page: Page, selector: string, step: number = WHEEL_STEP_PX): Promise<ScrolledFrames> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Performance.enable');
    const seconds = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
      return { task: value('TaskDuration'), cpu: value('ThreadTime') };
    };
    const before = await seconds();
    const scrolled = (await page.evaluate(`new Promise((resolve) => {
  const el = document.querySelector(${JSON.stringify(selector)});
  el.scrollTo(0, 0);
  const frames = [];
  let mounted = 0, mostMounted = 0, added = 0, gaps = 0;
  const observer = new MutationObserver((records) => {
    for (const r of records) for (const node of r.addedNodes) if (node.nodeName === 'LI') added++;
  });
  observer.observe(el, { childList: true, subtree: true });
  const covered = () => {
    const top = el.scrollTop, bottom = Math.min(top + el.clientHeight, el.scrollHeight);
    const spans = [...el.querySelectorAll('li')].map((li) => {
      const y = Number(/translateY\\((-?[0-9.]+)px\\)/.exec(li.style.transform)?.[1]);
      return [y, y + parseFloat(li.style.height)];
    }).sort((a, b) => a[0] - b[0]);
    let reach = top;
    for (const [from, to] of spans) if (from <= reach + 1) reach = Math.max(reach, to);
    return reach >= bottom - 1;
  };
  let last = performance.now();
  const frame = (now) => {
    frames.push(now - last);
    last = now;
    mounted += added;
    mostMounted = Math.max(mostMounted, added);
    added = 0;
    if (!covered()) gaps++;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) {
      observer.disconnect();
      return resolve({ frames: frames.slice(1), mounted, mostMounted, gaps });
    }
    setTimeout(() => { el.scrollTop += ${step}; });
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`)) as Omit<ScrolledFrames, 'busyMs' | 'cpuMs'>;
    const after = await seconds();
    return { ...scrolled, busyMs: (after.task - before.task) * 1000, cpuMs: (after.cpu - before.cpu) * 1000 };
  } finally {
    await cdp.detach();
  }
}

/** A scroll's figures for a table row: the frames' median and how many spanned more than two refreshes, the work behind them. */
export function describeScroll(s: ScrolledFrames, step: number = WHEEL_STEP_PX): string {
  const slow = s.frames.filter((ms) => refreshesOf(ms) > 2).length;
  return `${s.frames.length} frames at ${fmtCount(step)} px each, median ${fmtMs(median(s.frames))}, ${slow} over two refreshes (33 ms); main thread busy ${fmtMs(s.busyMs / s.frames.length)} a frame, of it ${fmtMs(s.cpuMs / s.frames.length)} CPU; ${fmtCount(s.mounted)} items mounted (at most ${s.mostMounted} for a frame), ${s.gaps} frames with part of the view not drawn yet`;
}
