import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { buildDirOf, copyCompleteBuild, ensureExtensionBuilt, startSite } from '../test/browser/support.ts';
import { type FirefoxUser, launchFirefoxUser, prepareFirefoxRun } from '../test/firefox/support.ts';
import { signIn } from '../test/scenarios/sign-in.ts';
import type { UserPage } from '../test/scenarios/user.ts';
import { READY_PROBE } from './extension.ts';
import { type CountingProxy, type LoadOnce, buildHelloPage, describeRequests, quiet, readyProbe, startCountingProxy, timeLoads } from './extension-support.ts';
import { TREE_ITEM, TREE_TARGET, growTrees } from './options.ts';
import { startShelfServer } from './processes.ts';
import { type Row, fmtCount, fmtMs, measured, verdict } from './table.ts';
import { type BenchSettings, LIBRARY_SIZE, type Workspace } from './workspace.ts';

// The extension API inside functions that run in an extension page: not a global of this Node process.
declare const chrome: {
  storage: { local: { set(items: Record<string, unknown>): Promise<void> } };
  tabs: { update(id: number, change: { active: boolean }): Promise<unknown> };
};

const SECTION = 'firefox';
const LOADS = 11;
const TAB_SWITCHES = 10;
/** The sidebar's first bookmark row (bench/side-panel.ts's). */
const FIRST_ROW = '[role="region"] li a[href]';

type Probed = { __readyAt?: number; __saveReadyAt?: number };

/** What each row waits for in the page and in the hello-world page beside it (bench-probe.js reads which from localStorage). */
const PROBES = { popup: READY_PROBE, sidebar: readyProbe(FIRST_ROW), options: readyProbe(TREE_ITEM) };
type Probe = keyof typeof PROBES;
const PROBE_KEY = 'shelfBenchProbe';
/** The pages that load bench-probe.js before their own scripts. */
const PROBED_PAGES = ['popup.html', 'sidepanel.html', 'options.html', 'bench-hello/index.html'];

/**
 * Issue 19's figures, in headless Firefox ESR with the built Firefox extension, each beside the hello-world page
 * built the same way and loaded in the same run: the popup to an enabled Save (≤ 1.0 ×), the sidebar to its first
 * row of All bookmarks with 10,000 saved (≤ 1.5 ×), the options page to its interactive tree of 1,000 collections
 * (≤ 2 ×); and the requests of a save and of tab switches, counted at a proxy in front of the server.
 */
export async function firefoxSection(ws: Workspace, _settings: BenchSettings): Promise<Row[]> {
  ensureExtensionBuilt('firefox');
  await prepareFirefoxRun(ws.emptyDir('firefox-profile-template'));
  const withHello = await firefoxBuildWithHello(ws);
  const rows: Row[] = [];
  await withSignedInFirefox(ws.emptyDir('firefox-popup'), ws.token, withHello, async (user, proxy, extensionPage) => {
    rows.push(...(await popupRows(user, proxy, extensionPage)));
  });
  const library = ws.seededDir('firefox-library');
  const trees = growTrees(library);
  await withSignedInFirefox(library, ws.token, withHello, async (user, _proxy, extensionPage) => {
    await extensionPage.evaluate(() =>
      chrome.storage.local.set({ sidePanelPlace: { kind: 'list', source: { kind: 'all' }, title: 'All bookmarks' } }),
    );
    rows.push(
      await besideHello(user, extensionPage, 'sidebar', 'sidepanel.html', `sidebar: navigation → first row of All bookmarks (${fmtCount(LIBRARY_SIZE)} saved), median of ${LOADS}`, 1.5),
      await besideHello(user, extensionPage, 'options', 'options.html#collections', `options page: navigation → interactive tree of ${fmtCount(trees.collections)} collections, median of ${LOADS}`, TREE_TARGET),
    );
  });
  return rows;
}

/**
 * The first answer of `read` that is not null or false, asked every 20 ms for 30 s: an evaluation made while
 * Firefox replaces the document fails (over BiDi), and is asked again.
 */
async function until<T>(read: () => Promise<T | null | false>, failure: string): Promise<T> {
  for (const end = Date.now() + 30_000; ; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const value = await read().catch(() => null);
    if (value !== null && value !== false) return value;
    if (Date.now() > end) throw new Error(`${failure} within 30 s`);
  }
}

/** A fresh Firefox page per load, probed by bench-probe.js (Firefox runs no WebDriver preload script in an extension page). */
const loadInFirefox =
  (user: FirefoxUser): LoadOnce =>
  async (url, marks) => {
    const page = await user.browser.newPage();
    // Firefox may never report an extension page's load over BiDi: the probe's moment is what is waited for.
    void page.goto(url, { waitUntil: 'domcontentloaded' }).catch(() => undefined);
    const at = await until(
      () => page.evaluate((target) => (location.href === target ? ((window as Probed).__readyAt ?? (window as Probed).__saveReadyAt ?? null) : null), url),
      `${url} was not ready`,
    );
    let times: (number | undefined)[] = [];
    if (marks.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      times = await page.evaluate((names) => names.map((n) => performance.getEntriesByName(n)[0]?.startTime), [...marks]);
    }
    await page.close();
    return { at, times };
  };

/** Fresh loads of an extension page until ready, alternating with the hello-world page's: a row against `target` × it. */
const besideHello = (user: FirefoxUser, extensionPage: Page, probe: Probe, path: string, measurement: string, target: number): Promise<Row> =>
  measured({ section: SECTION, measurement, target: `≤ ${target.toFixed(1)} × the hello-world page` }, async () => {
    // Extension pages share localStorage: every page loaded from now on waits for this row's moment.
    await extensionPage.evaluate((key, value) => localStorage.setItem(key, value), PROBE_KEY, probe);
    const times = await timeLoads(loadInFirefox(user), user.url(path), user.url('bench-hello/index.html'), { loads: LOADS, warmups: 2 });
    const ratio = times.page / times.hello;
    return { result: `${fmtMs(times.page)} (${ratio.toFixed(2)} ×)`, beside: `${fmtMs(times.hello)} hello-world React + Tailwind page`, verdict: verdict(ratio <= target) };
  });

/** The popup's start-up beside the hello page, and the requests of a save through it and of tab switches. */
async function popupRows(user: FirefoxUser, proxy: CountingProxy, extensionPage: Page): Promise<Row[]> {
  const site = await startSite({ '/one': 'Page one', '/two': 'Page two', '/three': 'Page three' });
  try {
    const tabs: number[] = [];
    for (const path of ['/one', '/two', '/three']) tabs.push(await user.openTab(site.url(path)));
    const popupPath = `popup.html?tabId=${tabs[0]!}`;
    const rows = [await besideHello(user, extensionPage, 'popup', popupPath, `popup: navigation → enabled Save, median of ${LOADS}`, 1)];
    rows.push(
      await measured({ section: SECTION, measurement: 'requests per save through the popup', target: '1' }, async () => {
        // The popup's own requests on opening (bench/extension.ts counts those apart) are over before the save's are counted.
        let popup: UserPage | undefined;
        await proxy.count(async () => {
          popup = await user.open(popupPath);
          await until(() => popup!.isDisabled('button', 'Save').then((disabled) => !disabled), 'the popup’s Save was not enabled');
        });
        const counted = await proxy.count(async () => {
          await popup!.click('button', 'Save');
          await popup!.waitFor('heading', 'Saved in Shelf');
        });
        await popup!.close();
        return { result: describeRequests(counted), beside: '', verdict: verdict(counted.length === 1) };
      }),
      await measured({ section: SECTION, measurement: `requests per tab switch (${TAB_SWITCHES} switches)`, target: '0' }, async () => {
        const counted = await proxy.count(async () => {
          for (let i = 0; i < TAB_SWITCHES; i++) await extensionPage.evaluate((id) => chrome.tabs.update(id, { active: true }), tabs[i % tabs.length]!);
        });
        // The switches did reach the icon: the saved page's tab shows it saved.
        if ((await user.badge(tabs[0]!)) !== '✓') throw new Error('the saved page’s tab does not show ✓ after the switches');
        return { result: `${(counted.length / TAB_SWITCHES).toFixed(1)} (${describeRequests(counted)} in all)`, beside: '', verdict: verdict(counted.length === 0) };
      }),
    );
    return rows;
  } finally {
    await site.close();
  }
}

/**
 * The Firefox build with the hello-world page among its own pages (bench-hello/), so that both load the same way;
 * each of the pages timed starts with bench-probe.js, which notes the moment the row's probe waits for.
 */
async function firefoxBuildWithHello(ws: Workspace): Promise<string> {
  const dir = ws.file('firefox-with-hello');
  await copyCompleteBuild(dir, buildDirOf('firefox'));
  cpSync(await buildHelloPage(ws), join(dir, 'bench-hello'), { recursive: true });
  const chosen = Object.entries(PROBES).map(([name, probe]) => `if (wanted === ${JSON.stringify(name)}) ${probe}`);
  writeFileSync(join(dir, 'bench-probe.js'), `(() => {\n  const wanted = localStorage.getItem(${JSON.stringify(PROBE_KEY)});\n${chosen.join('\n')}\n})();\n`);
  for (const page of PROBED_PAGES) {
    const html = readFileSync(join(dir, page), 'utf8');
    if (!html.includes('<head>')) throw new Error(`${page} has no <head> to load bench-probe.js in`);
    writeFileSync(join(dir, page), html.replace('<head>', '<head><script src="/bench-probe.js"></script>'));
  }
  return dir;
}

/**
 * The built Firefox extension with the hello-world page beside it, signed in through a counting proxy to a server
 * of its own on `dataDir`, once the index sync its sign-in starts is over; `work` gets an extension page of its own
 * to run the extension API in.
 */
async function withSignedInFirefox(
  dataDir: string,
  token: string,
  withHello: string,
  work: (user: FirefoxUser, proxy: CountingProxy, extensionPage: Page) => Promise<void>,
): Promise<void> {
  const server = await startShelfServer(dataDir);
  const proxy = await startCountingProxy(new URL(server.url).origin);
  let user: FirefoxUser | undefined;
  try {
    user = await launchFirefoxUser({ alone: true });
    // Over the copy launchFirefoxUser installed: the same add-on id, so the same moz-extension:// origin.
    await user.browser.installExtension(withHello);
    await (await signIn(user, { baseUrl: `${proxy.origin}/v1`, token: server.firstToken ?? token })).close();
    const extensionPage = await user.browser.newPage();
    const helloUrl = user.url('bench-hello/index.html');
    void extensionPage.goto(helloUrl, { waitUntil: 'domcontentloaded' }).catch(() => undefined);
    await until(() => extensionPage.evaluate((target) => location.href === target && document.readyState !== 'loading', helloUrl), `${helloUrl} did not load`);
    await quiet(proxy, { evaluate: (expression) => extensionPage.evaluate(expression) });
    await work(user, proxy, extensionPage);
  } finally {
    await user?.close();
    await Promise.all([proxy.close(), server.stop()]);
  }
}
