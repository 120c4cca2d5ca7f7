import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import type { Browser } from 'wxt/browser';
import {
  BUILD_DIR,
  type ExtensionBrowser,
  ensureExtensionBuilt,
  launchExtension,
  signInThroughOptions,
  startSite,
} from '../test/browser/support.ts';
import { HOLDING_MARK, TAKEN_OVER_MARK } from '../entrypoints/popup/early-events.ts';
import { buildHelloPage, describeRequests, startCountingProxy } from './extension-support.ts';
import { startShelfServer } from './processes.ts';
import { median } from './stats.ts';
import { type Row, fmtMs, measured, verdict } from './table.ts';
import type { BenchSettings, Workspace } from './workspace.ts';

declare const chrome: typeof Browser;
/** The page's window as READY_PROBE leaves it: performance.now() when an enabled "Save" button first appeared. */
type Probed = { __saveReadyAt?: number };

const SECTION = 'extension';
const POPUP_JS_TARGET_BYTES = 90 * 1024;
const TAB_SWITCHES = 10;
const LOADS = 20;

/**
 * Issue 5's extension figures, in headless Chromium with the built extension:
 * popup start-up beside a hello-world React page, popup JavaScript size, and
 * requests per save and per tab switch, counted at a proxy in front of the server.
 */
export async function extensionSection(ws: Workspace, _settings: BenchSettings): Promise<Row[]> {
  ensureExtensionBuilt();
  const helloDir = await buildHelloPage(ws);

  const server = await startShelfServer(ws.emptyDir('extension'));
  const proxy = await startCountingProxy(new URL(server.url).origin);
  const site = await startSite({ '/one': 'Page one', '/two': 'Page two', '/three': 'Page three' });
  let browser: ExtensionBrowser | undefined;
  try {
    if (server.firstToken === null) throw new Error('the server printed no token on its first start');
    browser = await launchExtension({ extraPages: { 'bench-hello': helloDir } });
    await browser.context.addInitScript({ content: READY_PROBE });
    await signInThroughOptions(browser, `${proxy.origin}/v1`, server.firstToken);
    const tabs = await Promise.all(['/one', '/two', '/three'].map((path) => browser!.openTab(site.url(path))));
    const popupUrl = browser.url(`popup.html?tabId=${tabs[0]!.tabId}`);
    const helloUrl = browser.url('bench-hello/index.html');
    const b = browser;

    return [
      ...(await timedRows(b, popupUrl, helloUrl)),
      await measured({ section: SECTION, measurement: 'popup JavaScript, gzip -9, all it loads', target: '≤ 90 kB' }, async () => {
        const { gzipBytes, rawBytes, files, staticGzipBytes } = popupScriptSize();
        return {
          result: `${fmtKb(gzipBytes)} (${fmtKb(rawBytes)} raw, ${files} files)`,
          beside: `${fmtKb(staticGzipBytes)} of it imported by popup.html itself`,
          verdict: verdict(gzipBytes <= POPUP_JS_TARGET_BYTES),
        };
      }),
      await measured({ section: SECTION, measurement: 'requests per popup open (unsaved page, caches filled)', target: '' }, async () => {
        const counted = await proxy.count(async () => {
          const page = await openPopup(b, popupUrl);
          await page.close();
        });
        return { result: describeRequests(counted), beside: '', verdict: '' };
      }),
      await measured({ section: SECTION, measurement: 'requests per save through the popup', target: '1' }, async () => {
        const page = await openPopup(b, popupUrl);
        const counted = await proxy.count(async () => {
          await page.getByRole('button', { name: 'Save', exact: true }).click();
          await page.getByRole('heading', { name: 'Saved in Shelf' }).waitFor({ timeout: 10_000 });
        });
        await page.close();
        return { result: describeRequests(counted), beside: '', verdict: verdict(counted.length === 1) };
      }),
      await measured({ section: SECTION, measurement: `requests per tab switch (${TAB_SWITCHES} switches)`, target: '0' }, async () => {
        const worker = await b.worker();
        const counted = await proxy.count(async () => {
          for (let i = 0; i < TAB_SWITCHES; i++) {
            await worker.evaluate((id) => chrome.tabs.update(id, { active: true }), tabs[i % tabs.length]!.tabId);
          }
        });
        // The switches did reach the icon: the saved page's tab shows it saved.
        if ((await b.badge(tabs[0]!.tabId)) !== '✓') throw new Error('the saved page’s tab does not show ✓ after the switches');
        return { result: `${(counted.length / TAB_SWITCHES).toFixed(1)} (${describeRequests(counted)} in all)`, beside: '', verdict: verdict(counted.length === 0) };
      }),
    ];
  } finally {
    await browser?.close();
    await Promise.all([site.close(), proxy.close(), server.stop()]);
  }
}

/**
 * Runs in every page before its own scripts: notes performance.now() (time since
 * navigation start) the moment an enabled button named "Save" is in the DOM.
 * Plain JavaScript text: a function compiled by tsx would carry its __name helper into the page.
 */
export const READY_PROBE = `(() => {
  if (location.protocol !== 'chrome-extension:' && location.protocol !== 'moz-extension:') return;
  const observer = new MutationObserver(() => {
    if (window.__saveReadyAt !== undefined) return;
    const ready = Array.from(document.querySelectorAll('button')).some(
      (b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim() === 'Save' && !b.disabled && b.getAttribute('aria-disabled') !== 'true',
    );
    if (!ready) return;
    window.__saveReadyAt = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`;

async function openPopup(browser: ExtensionBrowser, url: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as Probed).__saveReadyAt !== undefined, undefined, { timeout: 15_000 });
  return page;
}

/**
 * The start-up rows, from the same loads: to an enabled Save in the page (the
 * target), to the first paint (which shows it), and, for the popup, to the
 * moments popup-early.js holds a click and React has taken the pre-rendered form
 * over (and carries out what was held).
 */
async function timedRows(browser: ExtensionBrowser, popupUrl: string, helloUrl: string): Promise<Row[]> {
  let loads: { popup: Load[]; hello: Load[] } | undefined;
  const medianOf = (pick: (load: Load) => number | undefined, page: 'popup' | 'hello') => {
    if (!loads) throw new Error('the start-up loads did not run');
    return median(loads[page].map((load) => pick(load) ?? Number.NaN));
  };
  const row = (measurement: string, target: string, pick: (load: Load) => number | undefined, remark = (_popup: Load[]) => '') =>
    measured({ section: SECTION, measurement, target }, async () => {
      loads ??= await timeLoads(browser, popupUrl, helloUrl, LOADS);
      const hello = medianOf(pick, 'hello');
      const popup = medianOf(pick, 'popup');
      const ratio = popup / hello;
      return {
        result: `${fmtMs(popup)} (${ratio.toFixed(2)} ×)${remark(loads.popup)}`,
        beside: `${fmtMs(hello)} hello-world React + Tailwind page`,
        verdict: target === '' ? '' : verdict(ratio <= 1),
      };
    });
  // The hello-world page has nothing to hold or take over: its figure beside is its own enabled Save.
  const popupMark = (mark: 'holding' | 'takenOver') => (load: Load) => load[mark] ?? load.saveReady;
  return [
    await row(`popup: navigation → enabled Save, median of ${LOADS}`, '≤ 1.0 × the hello-world page', (load) => load.saveReady),
    await row('popup: navigation → first paint (Save on screen), same loads', '', (load) => load.firstPaint),
    await row('popup: navigation → a click on Save is held (popup-early.js runs), same loads', '', popupMark('holding'), (popup) => {
      const late = popup.flatMap((load) => (load.holding !== undefined && load.holding > load.firstPaint ? [load.holding - load.firstPaint] : []));
      const lateness = late.length === 0 ? '' : ` (in the others at most ${fmtMs(Math.max(...late))} after it)`;
      return `, before the first paint in ${popup.length - late.length} of ${popup.length} loads${lateness}`;
    }),
    await row('popup: navigation → React has taken the form over, same loads', '', popupMark('takenOver')),
  ];
}

interface Load {
  saveReady: number;
  firstPaint: number;
  /** The popup's User Timing marks; the hello-world page has none. */
  holding?: number;
  takenOver?: number;
}

/** The figures of `loads` fresh pages each, the two pages alternating so that machine noise falls on both. */
async function timeLoads(browser: ExtensionBrowser, popupUrl: string, helloUrl: string, loads: number): Promise<{ popup: Load[]; hello: Load[] }> {
  const once = async (url: string): Promise<Load> => {
    const page = await openPopup(browser, url);
    // waitForFunction answers once the entry is there: its time is a number then.
    const entry = async (name: string) => (await (await page.waitForFunction((n) => performance.getEntriesByName(n)[0]?.startTime, name, { timeout: 15_000 })).jsonValue())!;
    const load: Load = {
      saveReady: await page.evaluate(() => (window as unknown as Probed).__saveReadyAt!),
      firstPaint: await entry('first-contentful-paint'),
      ...(url === popupUrl && { holding: await entry(HOLDING_MARK), takenOver: await entry(TAKEN_OVER_MARK) }),
    };
    await page.close();
    return load;
  };
  // Warm-up, not counted: the disk cache and V8's code cache fill on the first loads.
  for (let i = 0; i < 2; i++) {
    await once(popupUrl);
    await once(helloUrl);
  }
  const popup: Load[] = [];
  const hello: Load[] = [];
  for (let i = 0; i < loads; i++) {
    if (i % 2 === 0) {
      popup.push(await once(popupUrl));
      hello.push(await once(helloUrl));
    } else {
      hello.push(await once(helloUrl));
      popup.push(await once(popupUrl));
    }
  }
  return { popup, hello };
}

/**
 * The JavaScript the popup runs: popup.html's scripts and preloads with the
 * chunks they import statically, and in all, with the chunks they import
 * dynamically once they run.
 */
export function popupScriptSize(): { gzipBytes: number; rawBytes: number; files: number; staticGzipBytes: number } {
  const html = readFileSync(join(BUILD_DIR, 'popup.html'), 'utf8');
  const entry = [...html.matchAll(/<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => (m[1] ?? m[2])!);
  if (entry.length === 0) throw new Error('popup.html loads no script');
  const collect = (followDynamic: boolean) => {
    const seen = new Set<string>();
    const visit = (path: string) => {
      if (seen.has(path)) return;
      seen.add(path);
      const code = readFileSync(path, 'utf8');
      for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g)) visit(join(dirname(path), m[1]!));
      if (followDynamic) for (const m of code.matchAll(/\bimport\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g)) visit(join(dirname(path), m[1]!));
    };
    for (const src of entry) visit(join(BUILD_DIR, src.replace(/^\//, '')));
    return seen;
  };
  const gzip = (paths: Set<string>) => [...paths].reduce((sum, path) => sum + gzipSync(readFileSync(path), { level: 9 }).length, 0);
  const all = collect(true);
  const rawBytes = [...all].reduce((sum, path) => sum + readFileSync(path).length, 0);
  return { gzipBytes: gzip(all), rawBytes, files: all.size, staticGzipBytes: gzip(collect(false)) };
}

const fmtKb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
