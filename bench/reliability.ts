import type { Clock } from '../lib/client/scheduler.ts';
import { startFaultProxy } from '../test/support/fault-proxy.ts';
import { type ServerProcess, startServerProcess } from '../test/support/server-process.ts';
import { generateLibrary } from './library.ts';
import { seedLibrary } from './seed.ts';
import { type Row, fmtCount, fmtMs, measured, verdict } from './table.ts';
import type { Workspace } from './workspace.ts';

/**
 * The extension's background (its real scheduler, index sync and save queue,
 * over WXT's fake browser storage) against the real server under the spec's
 * limits. Time is virtual: whenever nothing is under way and the scheduler
 * waits for a slot, the scheduler's clock and the server's test clock jump
 * together, so that a day of limits takes seconds.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The scheduler's clock, moved only by the driver (with the server's). */
class VirtualClock implements Clock {
  current = Date.now();
  private timers = new Map<number, { at: number; run: () => void }>();
  private nextId = 1;
  now = () => this.current;
  setTimeout = (run: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.current + Math.max(0, ms), run });
    return id;
  };
  clearTimeout = (id: unknown) => void this.timers.delete(id as number);
  nextAt(): number | null {
    const ats = [...this.timers.values()].map((t) => t.at);
    return ats.length ? Math.min(...ats) : null;
  }
  fireDue(): void {
    for (const [id, timer] of [...this.timers]) {
      if (timer.at > this.current) continue;
      this.timers.delete(id);
      timer.run();
    }
  }
}

type TestBackground = Awaited<ReturnType<typeof backgroundFor>>;

async function backgroundFor(clock: VirtualClock) {
  // The background's modules read the extension API from globalThis.chrome: WXT's fake browser stands in.
  const { fakeBrowser } = await import('wxt/testing/fake-browser');
  (globalThis as { chrome?: unknown }).chrome = fakeBrowser;
  fakeBrowser.reset();
  const { createTestBackground } = await import('../test/extension/support/background.ts');
  return createTestBackground({ clock });
}

interface Shelf {
  server: ServerProcess;
  origin: string;
  token: string;
  /** Moves the server's test clock and the scheduler's together. */
  advance(clock: VirtualClock, ms: number): Promise<void>;
}

/** A data directory with `count` bookmarks (the first start makes the user), served with the spec's limits and a test clock. */
async function seededShelf(ws: Workspace, name: string, count: number): Promise<Shelf> {
  const dir = ws.emptyDir(name);
  const first = await startServerProcess('server/main.ts', ['--port', '0', '--data', dir]);
  await first.stop();
  const token = first.banner.join('\n').match(/tok_[0-9a-f]{64}/)?.[0];
  if (!token) throw new Error('the first start printed no token');
  if (count > 0) seedLibrary(dir, generateLibrary(count, Date.now()));
  const server = await startServerProcess('server/main.ts', ['--port', '0', '--data', dir, '--test-clock']);
  const origin = new URL(server.url).origin;
  return {
    server,
    origin,
    token,
    async advance(clock, ms) {
      if (ms <= 0) return;
      await fetch(`${origin}/__test__/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advanceMs: ms }) });
      clock.current += ms;
    },
  };
}

/** Runs `work` to its end, jumping both clocks whenever the background only waits. */
async function virtually<T>(work: Promise<T>, bg: TestBackground, clock: VirtualClock, shelf: Shelf): Promise<T> {
  let done = false;
  const finished = work.finally(() => (done = true));
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    const under = bg.requests.filter((r) => r.status === undefined).length; // 0 once answered or failed
    const at = clock.nextAt();
    if (done || under > 0 || at === null) continue;
    await shelf.advance(clock, at - clock.current);
    clock.fireDue();
  }
  return finished;
}

const count429 = (bg: TestBackground) => bg.requests.filter((r) => r.status === 429).length;

async function syncRow(ws: Workspace, size: number): Promise<Row> {
  return measured({ section: 'reliability', measurement: `full index sync, ${fmtCount(size)} bookmarks (spec limits)`, target: '≤ 100 list requests, 0 × 429' }, async () => {
    const shelf = await seededShelf(ws, `sync-${size}`, size);
    try {
      const clock = new VirtualClock();
      const bg = await backgroundFor(clock);
      await bg.services.account.signIn(`${shelf.origin}/v1`, shelf.token);
      bg.requests.length = 0;
      const startVirtual = clock.current;
      const started = performance.now();
      const known = await virtually(bg.services.index.sync({ full: true }), bg, clock, shelf);
      const wall = performance.now() - started;
      const lists = bg.requests.filter((r) => new URL(r.url).pathname === '/v1/bookmarks').length;
      if (known !== size) throw new Error(`the index knows ${known} pages of ${size}`);
      return {
        result: `${lists} list + ${bg.requests.length - lists} other requests; ${fmtMs(clock.current - startVirtual)} under the limits, ${fmtMs(wall)} wall; ${count429(bg)} × 429`,
        beside: '',
        verdict: verdict(lists <= 100 && count429(bg) === 0),
      };
    } finally {
      await shelf.server.stop();
    }
  });
}

/** A day of heavy use: a save and a popup open every 5 minutes, three bursts of 100 saves, hourly syncs, one full pass. */
async function dayRow(ws: Workspace): Promise<Row> {
  return measured({ section: 'reliability', measurement: 'simulated day of heavy use (spec limits)', target: '0 × 429, no save lost' }, async () => {
    const shelf = await seededShelf(ws, 'day', 2_000);
    try {
      const clock = new VirtualClock();
      const bg = await backgroundFor(clock);
      const { services, handlers } = bg;
      await services.account.signIn(`${shelf.origin}/v1`, shelf.token);
      await virtually(services.index.sync({ full: true, now: clock.current }), bg, clock, shelf);
      const start = clock.current;
      const urls: string[] = [];
      const events: { at: number; run: () => Promise<unknown> }[] = [];
      const save = (url: string) => {
        urls.push(url);
        return handlers.saveBookmark({ bookmark: { url, title: url } });
      };
      for (let t = 0; t < 24 * HOUR; t += 5 * MINUTE) {
        events.push({ at: t, run: () => save(`https://day.example/regular-${t}`) });
        events.push({ at: t + MINUTE, run: () => Promise.all([handlers.lookupUrl({ url: `https://day.example/regular-${t}` }), handlers.listTags({}), handlers.listCollections({})]) });
      }
      for (const burstAt of [9 * HOUR, 14 * HOUR, 20 * HOUR]) {
        events.push({ at: burstAt + 30_000, run: () => Promise.all(Array.from({ length: 100 }, (_, i) => save(`https://day.example/burst-${burstAt}-${i}`))) });
      }
      for (let t = HOUR / 2; t < 24 * HOUR; t += HOUR) events.push({ at: t, run: () => services.index.sync({ now: clock.current }) });
      events.push({ at: 12 * HOUR + 10 * MINUTE, run: () => services.index.sync({ full: true, now: clock.current }) });
      events.sort((a, b) => a.at - b.at);

      const started = performance.now();
      const running: Promise<unknown>[] = [];
      for (const event of events) {
        // Run the background up to the event's moment, then start it (without waiting: work overlaps as in use).
        await virtually(Promise.race([Promise.all(running), waitUntil(clock, start + event.at)]), bg, clock, shelf);
        await shelf.advance(clock, start + event.at - clock.current);
        clock.fireDue();
        running.push(event.run().catch(() => undefined));
      }
      await virtually(Promise.all(running), bg, clock, shelf);
      await virtually(services.queue.drain(true), bg, clock, shelf);
      const waiting = (await services.queue.list()).length;
      const saved = new Set<string>();
      for (const url of urls) if ((await services.index.lookup(url)) !== null) saved.add(url);
      const lost = urls.length - saved.size - waiting;
      return {
        result: `${fmtCount(bg.requests.length)} requests, ${fmtCount(urls.length)} saves (${saved.size} saved, ${waiting} still queued, ${lost} lost); ${count429(bg)} × 429; ${fmtMs(performance.now() - started)} wall`,
        beside: '',
        verdict: verdict(count429(bg) === 0 && lost === 0 && waiting === 0),
      };
    } finally {
      await shelf.server.stop();
    }
  });
}

/** Resolves when the virtual clock reaches `at` (moved there by `virtually`). */
function waitUntil(clock: VirtualClock, at: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, at - clock.current));
}

async function drainRow(ws: Workspace): Promise<Row> {
  return measured({ section: 'reliability', measurement: '100 queued saves: server back → queue drained', target: 'all saved once, 0 × 429' }, async () => {
    const shelf = await seededShelf(ws, 'drain', 0);
    const proxy = await startFaultProxy(`${shelf.origin}/v1`);
    try {
      const clock = new VirtualClock();
      const bg = await backgroundFor(clock);
      await bg.services.account.signIn(proxy.baseUrl, shelf.token);
      await virtually(bg.idle(), bg, clock, shelf);
      proxy.fault = 'down';
      for (let i = 0; i < 100; i++) await bg.handlers.saveBookmark({ bookmark: { url: `https://drain.example/${i}` } });
      const queued = (await bg.services.queue.list()).length;
      if (queued !== 100) throw new Error(`${queued} saves queued of 100`);
      proxy.fault = 'pass';
      bg.requests.length = 0;
      const startVirtual = clock.current;
      const started = performance.now();
      // What the browser coming online (or the worker starting) does.
      await virtually(bg.services.queue.drain(true), bg, clock, shelf);
      const left = (await bg.services.queue.list()).length;
      const posts = bg.requests.filter((r) => r.method === 'POST').length;
      return {
        result: `${fmtMs(clock.current - startVirtual)} under the limits (${fmtMs(performance.now() - started)} wall), ${posts} POSTs, ${left} left, ${count429(bg)} × 429`,
        beside: 'background work keeps 10 of the 60 a minute for the user',
        verdict: verdict(left === 0 && posts === 100 && count429(bg) === 0),
      };
    } finally {
      await proxy.close();
      await shelf.server.stop();
    }
  });
}

export async function reliabilitySection(ws: Workspace): Promise<Row[]> {
  return [await syncRow(ws, 1_000), await syncRow(ws, 10_000), await drainRow(ws), await dayRow(ws)];
}
