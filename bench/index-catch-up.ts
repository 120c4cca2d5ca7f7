import type { Browser } from 'wxt/browser';
import { ensureExtensionBuilt, launchExtension, signInThroughOptions, startSite } from '../test/browser/support.ts';
import { describeRequests, quiet, startCountingProxy } from './extension-support.ts';
import { netscapeFile } from './netscape-file.ts';
import { startShelfServer } from './processes.ts';
import { type Row, fmtBytes, fmtCount, fmtMs, measured, verdict } from './table.ts';
import type { BenchSettings, Workspace } from './workspace.ts';

declare const chrome: typeof Browser;

const SECTION = 'index catch-up';
/** Issue 18's bound on the requests the saved-page index may spend catching up with an import of 10,000. */
const MAX_LIST_REQUESTS = 50;
const LIST = 'GET /v1/bookmarks';

/** Whether the worker's saved-page index has synced and is not syncing now. Plain JavaScript text (see extension-support.ts' SYNC_ENDED). */
const SYNC_IDLE = `chrome.storage.local.get(['savedIndex', 'indexSync']).then(({ savedIndex, indexSync }) =>
  Boolean(savedIndex && JSON.parse(savedIndex).syncedAt !== null && (!indexSync || !indexSync.running)))`;

/**
 * Issue 18: the library's 10,000 bookmarks imported from the options page as a browser's Netscape file, a tab
 * already open on the file's oldest page (the last a newest-first sync reaches). Counted at a proxy from the
 * click on *Import file* until the index is idle again: the list requests the catch-up spends; timed from the
 * import's end (the options page says "Imported") to the ✓ on that tab.
 */
export async function indexCatchUpSection(ws: Workspace, _settings: BenchSettings): Promise<Row[]> {
  ensureExtensionBuilt();
  const server = await startShelfServer(ws.emptyDir('index-catch-up'));
  const proxy = await startCountingProxy(new URL(server.url).origin);
  const site = await startSite({ '/oldest': 'The oldest imported page' });
  const browser = await launchExtension();
  const [oldest, ...rest] = ws.library.bookmarks;
  const file = Buffer.from(netscapeFile({ ...ws.library, bookmarks: [{ ...oldest!, url: site.url('/oldest') }, ...rest] }));
  const total = ws.library.bookmarks.length;
  try {
    if (server.firstToken === null) throw new Error('the server printed no token on its first start');
    const options = await signInThroughOptions(browser, `${proxy.origin}/v1`, server.firstToken);
    await quiet(proxy, browser);
    const { tabId } = await browser.openTab(site.url('/oldest'));
    if ((await browser.badge(tabId)) !== '') throw new Error('the page shows as saved before the import');
    await options.bringToFront();
    await options.getByRole('navigation', { name: 'Options sections' }).getByRole('link', { name: 'Import and export' }).click();
    await options.getByLabel('File to import').setInputFiles({ name: 'bookmarks.html', mimeType: 'text/html', buffer: file });

    let imported = 0;
    let checked = 0;
    const requests = await proxy.count(async () => {
      await options.getByRole('button', { name: 'Import file', exact: true }).click();
      // Pages the file holds twice are counted as already there: any count of imported ones ends the import.
      await options
        .getByText(/Imported [\d,]+ bookmarks?/)
        .waitFor({ timeout: 300_000 })
        .catch(async (err: unknown) => {
          throw new Error(`the import did not end within 5 minutes; the page said: ${(await options.locator('main').innerText()).slice(0, 300)}`, { cause: err });
        });
      imported = performance.now();
      const deadline = Date.now() + 300_000;
      while ((await browser.badge(tabId)) !== '✓') {
        if (Date.now() > deadline) throw new Error('no ✓ on the imported page within 5 minutes of the import');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      checked = performance.now();
      while (!((await (await browser.worker()).evaluate(SYNC_IDLE)) as boolean)) {
        if (Date.now() > deadline) throw new Error('the index kept syncing for 5 minutes after the import');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    });
    const lists = requests.filter((r) => r === LIST).length;
    const indexSays = (await (await browser.worker()).evaluate(() => chrome.storage.local.get('savedIndex'))) as { savedIndex?: { entries: Record<string, string> } };
    const known = Object.keys(indexSays.savedIndex?.entries ?? {}).length;
    return [
      await measured(
        { section: SECTION, measurement: `requests from Import file to an idle index, ${fmtCount(total)} bookmarks imported (${fmtBytes(file.length)} Netscape file)`, target: `≤ ${MAX_LIST_REQUESTS} list requests` },
        async () => ({
          result: `${lists} list requests; ${describeRequests(requests)} in all`,
          beside: `the index then knows ${fmtCount(known)} pages`,
          verdict: verdict(lists <= MAX_LIST_REQUESTS && known >= total),
        }),
      ),
      await measured({ section: SECTION, measurement: 'import done ("Imported" shown) → ✓ on a tab of its oldest page, same run', target: '' }, async () => ({
        result: fmtMs(checked - imported),
        beside: '',
        verdict: '',
      })),
    ];
  } finally {
    await browser.close();
    await Promise.all([site.close(), proxy.close(), server.stop()]);
  }
}
