import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type BrowserContext, type Page, type Worker, chromium } from 'playwright-core';
import { shelfScript, startShelfServer } from '../support/server-bundle-global.ts';
import type { ServerProcess } from '../support/server-process.ts';
import type { Browser } from 'wxt/browser';

// The extension API inside functions that run in Chromium (worker.evaluate): not a global of this Node process.
declare const chrome: typeof Browser;

/**
 * Shared by the browser tests and the bench's extension section: the built
 * extension in real Chromium, the real server as a process, and a tiny web site.
 */

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BUILD_DIR = join(REPO_ROOT, '.output', 'chrome-mv3');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const SOURCES = ['entrypoints', 'components', 'lib', 'modules', 'public', 'assets', 'wxt.config.ts', 'package.json'];

// ---------------------------------------------------------------- the build

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

/** Where `wxt build` puts each browser's extension. */
export type Target = 'chrome' | 'firefox';
export const buildDirOf = (target: Target): string => (target === 'chrome' ? BUILD_DIR : join(REPO_ROOT, '.output', 'firefox-mv3'));

/** Whether the target's build (.output/chrome-mv3 or firefox-mv3) is missing or older than any source it is built from. */
export function buildIsStale(target: Target = 'chrome'): boolean {
  const manifest = join(buildDirOf(target), 'manifest.json');
  if (!existsSync(manifest)) return true;
  const built = statSync(manifest).mtimeMs;
  return SOURCES.some((source) => newestMtime(join(REPO_ROOT, source)) > built);
}

/**
 * This process's environment less what vitest adds (NODE_ENV=test, VITEST…): a build run with it is the one a
 * shell makes. Under NODE_ENV=test, Vite builds React's development bundles (jsxDEV, StrictMode's doubled effects).
 */
export const shellEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && name !== 'TEST' && !name.startsWith('VITEST')));

/** `wxt build` (Chrome MV3, or `-b firefox --mv3`) when that build is missing or stale: the production build that ships. */
export function ensureExtensionBuilt(target: Target = 'chrome'): void {
  if (!buildIsStale(target)) return;
  const args = target === 'chrome' ? ['build'] : ['build', '-b', 'firefox', '--mv3'];
  execFileSync(join(REPO_ROOT, 'node_modules', '.bin', 'wxt'), args, { cwd: REPO_ROOT, env: shellEnv, stdio: ['ignore', 'ignore', 'inherit'] });
}

// ---------------------------------------------------------------- the server

export interface ShelfProcess {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  dataDir: string;
  /** The first start's Pro user and its all-scopes token. */
  userId: string;
  token: string;
  /** server/admin.ts (what `npm run admin` runs) with `--data <dataDir> ...args`: its JSON answer. */
  admin(...args: string[]): Promise<unknown>;
  /** A request to the API with this token (or another), answering the status and the parsed body. */
  api(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: unknown }>;
  /** SIGKILL, as a crash: requests under way get no answer. */
  kill(): Promise<void>;
  /** Starts it again on the same data directory (on another port: baseUrl changes). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Temporary folders not removed yet: a setup that failed half-way never reaches its afterAll's stop or close. */
const leftovers = new Set<string>();
process.on('exit', () => {
  for (const dir of leftovers) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  leftovers.add(dir);
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  leftovers.delete(dir);
}

/** The real server, `server/main --port 0 --data <tmp> ...extraArgs` (see shelfScript), in its own process. */
export async function startShelf(extraArgs: string[] = ['--allow-private-fetch']): Promise<ShelfProcess> {
  const dataDir = tempDir('shelf-browser-data-');
  let server: ServerProcess;
  try {
    server = await startShelfServer(['--port', '0', '--data', dataDir, ...extraArgs]);
  } catch (err) {
    removeDir(dataDir);
    throw err;
  }
  const { banner } = server;
  const text = banner.join('\n');
  const baseUrl = text.match(/listening (\S+)/)?.[1];
  const token = text.match(/tok_[0-9a-f]{64}/)?.[0];
  const userId = text.match(/user \(([^)]+)\)/)?.[1];
  if (!baseUrl || !token || !userId) throw new Error(`unexpected server banner:\n${text}`);

  const api: ShelfProcess['api'] = async (method, path, body, asToken = token) => {
    const res = await requestFromTests(shelf.baseUrl + path, {
      method,
      headers: { Authorization: `Bearer ${asToken}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const raw = res.bytes.toString('utf8');
    return { status: res.status, body: raw ? (JSON.parse(raw) as unknown) : null };
  };

  const shelf: ShelfProcess = {
    baseUrl,
    dataDir,
    userId,
    token,
    api,
    admin: (...args) => runAdmin(dataDir, args),
    kill: () => server.kill(),
    async restart() {
      await server.stop();
      server = await startShelfServer(['--port', '0', '--data', dataDir, ...extraArgs]);
      shelf.baseUrl = server.url;
    },
    async stop() {
      await server.stop();
      removeDir(dataDir);
    },
  };
  return shelf;
}

const execFileAsync = promisify(execFile);

async function runAdmin(dataDir: string, args: string[]): Promise<unknown> {
  const admin = shelfScript('admin');
  const { stdout } = await execFileAsync(process.execPath, [...admin.nodeArgs, admin.script, '--data', dataDir, ...args], { cwd: REPO_ROOT });
  return JSON.parse(stdout) as unknown;
}

/**
 * The address the tests' own requests to the server come from. The server allows each address 60 requests a
 * minute, and the extension keeps to that budget as if it had its address to itself: the tests' reads, sent from
 * the extension's address (127.0.0.1), took from it unseen, and the extension met the 429s it plans never to meet.
 */
const TESTS_ADDRESS = '127.0.0.2';

/** A request to a server of this computer from the tests' own address (TESTS_ADDRESS): its status and body. */
export function requestFromTests(url: string, init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array } = {}): Promise<{ status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers, localAddress: TESTS_ADDRESS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The `data` member of an API envelope, or an error naming what came instead. */
export function dataOf<T>(res: { status: number; body: unknown }): T {
  if (res.status >= 300 || typeof res.body !== 'object' || res.body === null || !('data' in res.body)) {
    throw new Error(`unexpected API answer ${res.status}: ${JSON.stringify(res.body)}`);
  }
  return res.body.data as T;
}

// ---------------------------------------------------------------- a web site to save pages of

export interface Site {
  origin: string;
  url(path: string): string;
  close(): Promise<void>;
}

/** A file a Site serves as it is: an image, or a page with its own markup. */
export interface SiteFile {
  type: string;
  body: string | Uint8Array;
}

/** node:http on 127.0.0.1 answering each path with a page of that title, or with one of `files`. */
export async function startSite(titles: Record<string, string>, files: Record<string, SiteFile> = {}): Promise<Site> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = files[path];
    if (file) {
      res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': String(Buffer.byteLength(file.body)) }).end(file.body);
      return;
    }
    const title = titles[path];
    if (title === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>${title}</title><meta name="description" content="About ${title}"></head><body><h1>${title}</h1></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => origin + path,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------- the browser

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  /** The extension's service worker (found again if Chromium has restarted it). */
  worker(): Promise<Worker>;
  /**
   * Runs `fn` in the extension's service worker; when that worker goes away under it (Chromium may stop or
   * replace a worker at any moment, and a promise left pending there is then collected), once more in the
   * worker that runs next. Only for what may run twice: reads, and writes of the same value.
   */
  inWorker<R>(fn: () => R | Promise<R>): Promise<R>;
  /** chrome-extension://<id>/<path> */
  url(path: string): string;
  /** Opens a web page in a new tab and answers the page and its tab id. */
  openTab(url: string): Promise<{ page: Page; tabId: number }>;
  badge(tabId: number): Promise<string>;
  /**
   * Closes Chromium and starts it again on the same profile: the extension's worker starts afresh with what it stored.
   * `whileClosed` runs in between (the world changing while the browser is not running).
   */
  relaunch(whileClosed?: () => void | Promise<void>): Promise<void>;
  /**
   * Stops the extension's service worker alone (CDP's ServiceWorker.stopWorker, what
   * chrome://serviceworker-internals does) and answers once it has stopped, with a promise that settles when
   * Chromium starts it again (an alarm, a message from a page). Meanwhile nothing may run in the worker
   * (worker().evaluate waits for it to run again).
   */
  stopWorker(): Promise<{ restarted: Promise<void> }>;
  close(): Promise<void>;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What Playwright says when the worker an evaluation ran in stopped, or was replaced, before it answered. */
const WORKER_GONE = /Resulting promise was garbage collected|Target (page, context or browser )?(has been )?closed|Execution context was destroyed/;

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const REQUIRED = ['manifest.json', 'popup.html', 'options.html', 'sidepanel.html', 'background.js'];

/** Copies a build, again if a `wxt build` elsewhere was rewriting it meanwhile (its manifest changed or files were missing). */
export async function copyCompleteBuild(to: string, from: string = BUILD_DIR): Promise<void> {
  const stamp = () => (existsSync(join(from, 'manifest.json')) ? statSync(join(from, 'manifest.json')).mtimeMs : 0);
  for (let attempt = 0; attempt < 30; attempt++) {
    const before = stamp();
    rmSync(to, { recursive: true, force: true });
    if (before > 0) cpSync(from, to, { recursive: true });
    if (before > 0 && stamp() === before && REQUIRED.every((file) => existsSync(join(to, file)))) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`${from} stayed incomplete for 30 s (it needs ${REQUIRED.join(', ')}): run \`npm run build\``);
}

/**
 * Headless Chromium with a private copy of the built extension: a build
 * started meanwhile (by `wxt build` elsewhere) cannot change it under a test.
 * extraPages: folder name in the extension → folder to copy there.
 */
export async function launchExtension(options: { extraPages?: Record<string, string>; args?: string[] } = {}): Promise<ExtensionBrowser> {
  const root = tempDir('shelf-browser-');
  const extensionDir = join(root, 'extension');
  try {
    await copyCompleteBuild(extensionDir);
  } catch (err) {
    removeDir(root);
    throw err;
  }
  // The bench's baseline page is served from the same extension, so that both load the same way.
  for (const [name, dir] of Object.entries(options.extraPages ?? {})) cpSync(dir, join(extensionDir, name), { recursive: true });
  const launch = () =>
    chromium.launchPersistentContext(join(root, 'profile'), {
      headless: true,
      executablePath: CHROMIUM,
      args: [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, ...ARGS, ...(options.args ?? [])],
    });
  let context = await launch();
  const isOurs = (w: Worker) => w.url().startsWith('chrome-extension://');
  const worker = async (): Promise<Worker> =>
    context.serviceWorkers().find(isOurs) ?? (await context.waitForEvent('serviceworker', { predicate: isOurs, timeout: 10_000 }));
  const extensionId = new URL((await worker()).url()).host;
  /**
   * The worker running after `gone` went away (Chromium's replacement, or the same one started again): an
   * extension page's messages start a stopped worker, which an evaluation would otherwise wait for.
   */
  const nextWorker = async (gone: Worker): Promise<Worker> => {
    if (context.serviceWorkers().includes(gone)) await Promise.race([new Promise((resolve) => gone.once('close', resolve)), delay(5_000)]);
    const started = context.waitForEvent('serviceworker', { predicate: isOurs, timeout: 10_000 });
    started.catch(() => undefined); // unused when a worker is listed already
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/options.html`);
    const woken = context.serviceWorkers().find(isOurs) ?? (await started);
    await page.close();
    return woken;
  };

  return {
    get context() {
      return context;
    },
    async relaunch(whileClosed) {
      await context.close();
      await whileClosed?.();
      context = await launch();
    },
    extensionId,
    worker,
    async inWorker(fn) {
      const first = await worker();
      try {
        return await first.evaluate(fn);
      } catch (err) {
        if (!WORKER_GONE.test(String(err))) throw err;
        return (await nextWorker(first)).evaluate(fn);
      }
    },
    url: (path) => `chrome-extension://${extensionId}/${path}`,
    async openTab(url) {
      const page = await context.newPage();
      await page.goto(url);
      const tabs = await (await worker()).evaluate(async (target) => (await chrome.tabs.query({ url: target })).map((t) => t.id), url);
      const tabId = tabs[0];
      if (tabs.length !== 1 || tabId === undefined) throw new Error(`expected one tab showing ${url}, found ${tabs.length}`);
      return { page, tabId };
    },
    badge: async (tabId) => (await worker()).evaluate((id) => chrome.action.getBadgeText({ tabId: id }), tabId),
    async stopWorker() {
      // The ServiceWorker domain lives on a page's session; its events say each version's running status.
      const page = await context.newPage();
      const session = await context.newCDPSession(page);
      const status = new Map<string, string>();
      session.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        for (const v of versions) if (v.scriptURL.startsWith(`chrome-extension://${extensionId}/`)) status.set(v.versionId, v.runningStatus);
      });
      await session.send('ServiceWorker.enable');
      const until = async <T>(found: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> => {
        for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 100))) {
          const value = found();
          if (value !== undefined) return value;
        }
        throw new Error(`the extension's service worker: ${what} within ${timeoutMs / 1000} s`);
      };
      const versionId = await until(() => [...status].find(([, s]) => s === 'running')?.[0], 'none running');
      await session.send('ServiceWorker.stopWorker', { versionId });
      await until(() => (status.get(versionId) === 'stopped' ? true : undefined), 'did not stop');
      const restarted = until(() => (status.get(versionId) === 'running' ? true : undefined), 'not started again', 120_000)
        .then(() => undefined)
        .finally(() => void page.close());
      return { restarted };
    },
    async close() {
      await context.close();
      removeDir(root);
    },
  };
}

/** The options page's sign-in form, filled in and submitted as a user would. */
export async function submitSignIn(page: Page, serverUrl: string, token: string): Promise<void> {
  await page.getByLabel('Server URL').fill(serverUrl);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the options page (a new one, or `shown`, already showing the form) and waits until it shows the signed-in account. */
export async function signInThroughOptions(browser: ExtensionBrowser, serverUrl: string, token: string, shown?: Page): Promise<Page> {
  const page = shown ?? (await browser.context.newPage());
  if (!shown) await page.goto(browser.url('options.html'));
  await submitSignIn(page, serverUrl, token);
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 10_000 });
  return page;
}

/** An extension event fired from inside the worker: Chromium's bindings let the extension dispatch its own events. */
export type Dispatchable = { dispatch(...args: unknown[]): void };

// ---------------------------------------------------------------- notifications and the image context menu

/** A notification the extension created, with the worker's performance.now() at that moment. */
export interface Note {
  title: string;
  message: string;
  at: number;
}
type Recorded = { __shelfNotes?: Note[] };

/** Makes the worker record every notification it creates: Chromium keeps no text it would show back. */
export async function recordNotifications(browser: ExtensionBrowser): Promise<void> {
  await (await browser.worker()).evaluate(() => {
    const notes: Note[] = [];
    (globalThis as Recorded).__shelfNotes = notes;
    const create = chrome.notifications.create.bind(chrome.notifications) as (options: Browser.notifications.NotificationCreateOptions) => Promise<string>;
    (chrome.notifications as { create: unknown }).create = (options: Browser.notifications.NotificationCreateOptions) => {
      notes.push({ title: options.title ?? '', message: options.message ?? '', at: performance.now() });
      return create(options);
    };
  });
}

export async function notifications(browser: ExtensionBrowser): Promise<Note[]> {
  return (await browser.worker()).evaluate(() => (globalThis as Recorded).__shelfNotes ?? []);
}

/**
 * What Chromium passes to contextMenus.onClicked for "Set as cover image" on an
 * image of the tab, fired in the worker (headless Chromium opens no menus).
 * Answers the worker's performance.now() at the click.
 */
export async function clickSetAsCover(browser: ExtensionBrowser, tabId: number, srcUrl: string): Promise<number> {
  return (await browser.worker()).evaluate(
    async ([id, src]) => {
      const tab = await chrome.tabs.get(id);
      const info = { menuItemId: 'shelf-set-cover', mediaType: 'image', srcUrl: src, pageUrl: tab.url, frameId: 0, editable: false };
      const at = performance.now();
      (chrome.contextMenus.onClicked as unknown as Dispatchable).dispatch(info, tab);
      return at;
    },
    [tabId, srcUrl] as const,
  );
}

/** What launchExtension needs for clickToolbarButton: CDP may trigger an extension's action (Playwright speaks CDP over a pipe). */
export const ACTION_CLICKS = ['--enable-unsafe-extension-debugging'];

/**
 * A click on Shelf's toolbar button over the tab showing `url`, as Chromium makes it (CDP's
 * Extensions.triggerAction): the real popup opens and the tab gets activeTab, the access the click gives.
 * Playwright lists no action popup as a page; a test acts in popup.html?tabId= of its own.
 */
export async function clickToolbarButton(browser: ExtensionBrowser, url: string): Promise<void> {
  const cdp = await browser.context.browser()!.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{ type: 'tab' }] });
    const tab = targetInfos.find((target) => target.url === url);
    if (!tab) throw new Error(`no tab shows ${url}`);
    await cdp.send('Extensions.triggerAction', { id: browser.extensionId, targetId: tab.targetId });
  } finally {
    await cdp.detach();
  }
}

// ---------------------------------------------------------------- time, faster

type Warped = { __shelfWarp?: (ms: number) => Promise<void> };

/**
 * Makes time run `speed` times as fast for the extension's worker and for the server (started with
 * --test-clock) together, so that a test paced by minute-long rate windows takes a fraction of the minutes.
 * Both clocks jump by the same step, the server's first, at most `stepMs` at a time: a request sent in
 * between counts on the server at most that much later than the extension thinks, which the scheduler's
 * margin (2 s on every window) absorbs, so the limits are kept as strictly as in real time. In the worker,
 * Date.now and setTimeout (what the scheduler and the queue read) follow, and each periodic alarm also fires once
 * a period has passed on the moved clock (Chromium's own go on in real time: a queue drained only every real half
 * minute would leave the faster minutes idle); one-off alarms and fetch timeouts keep real time. The worker keeps
 * its moved clock after `stop` (what it stored is dated by it).
 */
export async function speedUpTime(browser: ExtensionBrowser, shelf: ShelfProcess, speed: number, stepMs = 1_000): Promise<{ stop(): Promise<void> }> {
  const worker = await browser.worker();
  await worker.evaluate(async () => {
    const realNow = Date.now.bind(Date);
    const realSet = globalThis.setTimeout.bind(globalThis);
    const realClear = globalThis.clearTimeout.bind(globalThis);
    let offset = 0;
    let nextId = 1;
    const timers = new Map<number, { due: number; run: () => void; real?: ReturnType<typeof realSet> }>();
    const arm = (id: number) => {
      const timer = timers.get(id)!;
      timer.real = realSet(() => {
        timers.delete(id);
        timer.run();
      }, Math.max(0, timer.due - Date.now()));
    };
    Date.now = () => realNow() + offset;
    (globalThis as { setTimeout: unknown }).setTimeout = (run: (...args: unknown[]) => void, ms = 0, ...args: unknown[]) => {
      const id = nextId++;
      timers.set(id, { due: Date.now() + ms, run: () => run(...args) });
      arm(id);
      return id;
    };
    (globalThis as { clearTimeout: unknown }).clearTimeout = (id: number) => {
      const timer = timers.get(id);
      if (timer) realClear(timer.real);
      timers.delete(id);
    };
    // When each periodic alarm fires next on the moved clock, from where Chromium had it.
    const periodic = new Map((await chrome.alarms.getAll()).filter((a) => a.periodInMinutes).map((a) => [a.name, a.scheduledTime]));
    (globalThis as Warped).__shelfWarp = async (ms: number) => {
      offset += ms;
      for (const [id, timer] of timers) {
        realClear(timer.real);
        arm(id);
      }
      for (const alarm of await chrome.alarms.getAll()) {
        const due = periodic.get(alarm.name);
        if (!alarm.periodInMinutes || due === undefined || due > Date.now()) continue;
        periodic.set(alarm.name, due + alarm.periodInMinutes * 60_000);
        (chrome.alarms.onAlarm as unknown as Dispatchable).dispatch({ name: alarm.name, scheduledTime: due, periodInMinutes: alarm.periodInMinutes });
      }
    };
  });
  const realStep = stepMs / (speed - 1);
  let running = true;
  const loop = (async () => {
    // Each step is due realStep after the last one began: its round trips (a second or more under load) count
    // toward the wait instead of adding to it, which slowed time down to a fraction of `speed`.
    let lastStep = Date.now();
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, realStep - (Date.now() - lastStep))));
      lastStep = Date.now();
      const res = await fetch(`${new URL(shelf.baseUrl).origin}/__test__/clock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ advanceMs: stepMs }),
      });
      if (!res.ok) throw new Error(`the server's test clock answered ${res.status} (start it with --test-clock)`);
      await worker.evaluate((ms) => (globalThis as Warped).__shelfWarp?.(ms), stepMs);
    }
  })();
  loop.catch(() => undefined); // reported by stop
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** The next page the extension opens (a tab it creates), once its address matches. */
export async function nextOpenedPage(browser: ExtensionBrowser, url: RegExp): Promise<Page> {
  const page = await browser.context.waitForEvent('page', { predicate: (p) => url.test(p.url()), timeout: 10_000 });
  await page.waitForLoadState('domcontentloaded');
  return page;
}

/** Whether the element a locator names has the keyboard focus in its page. */
export const isFocused = (locator: ReturnType<Page['getByLabel']>): Promise<boolean> => locator.evaluate((element) => element === document.activeElement);
