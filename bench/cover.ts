import { SVG, png, pngOfAbout } from '../test/support/images.ts';
import {
  type ExtensionBrowser,
  clickSetAsCover,
  ensureExtensionBuilt,
  launchExtension,
  notifications,
  recordNotifications,
  signInThroughOptions,
  startSite,
} from '../test/browser/support.ts';
import { startShelfServer } from './processes.ts';
import { median } from './stats.ts';
import { type Row, fmtBytes, fmtMs, measured } from './table.ts';
import type { BenchSettings, Workspace } from './workspace.ts';

const SECTION = 'cover';
/** Three of each: the whole section (about 50 requests) stays within the 60 a minute the extension keeps to for one address. */
const RUNS = 3;
const COVER_BYTES = 1024 * 1024;

/**
 * Set as cover in headless Chromium with the built extension and the server as
 * a process: from the right-click (the extension's contextMenus.onClicked,
 * fired in its worker) to the notification that the cover is saved, timed by
 * the worker's clock. Each run is a page of its own.
 */
export async function coverSection(ws: Workspace, _settings: BenchSettings): Promise<Row[]> {
  ensureExtensionBuilt();
  const cover = pngOfAbout(COVER_BYTES);
  const pages = Object.fromEntries(Array.from({ length: 3 * RUNS }, (_, i) => [`/page-${i}`, `Page ${i}`]));
  const server = await startShelfServer(ws.emptyDir('cover'));
  const site = await startSite(pages, {
    '/cover.png': { type: 'image/png', body: cover },
    '/small.png': { type: 'image/png', body: png(64, 40) },
    '/drawing.svg': { type: 'image/svg+xml', body: SVG },
  });
  let browser: ExtensionBrowser | undefined;
  try {
    if (server.firstToken === null) throw new Error('the server printed no token on its first start');
    browser = await launchExtension();
    await signInThroughOptions(browser, server.url, server.firstToken);
    await recordNotifications(browser);
    const b = browser;
    let next = 0;
    const newPage = async () => (await b.openTab(site.url(`/page-${next++}`))).tabId;

    /** ms from the click to the notification, per run; each must say the cover was set. */
    const time = async (image: string, saveFirst: boolean): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const tabId = await newPage();
        // Saved beforehand by a small cover of its own, which the timed one then replaces.
        if (saveFirst) await timeOne(b, tabId, site.url('/small.png'));
        times.push(await timeOne(b, tabId, site.url(image)));
      }
      return times;
    };
    const row = (measurement: string, image: string, saveFirst: boolean) =>
      measured({ section: SECTION, measurement, target: '' }, async () => {
        const times = await time(image, saveFirst);
        return { result: `${fmtMs(median(times))} median, ${fmtMs(Math.max(...times))} max (${RUNS} runs)`, beside: '', verdict: '' };
      });

    return [
      await row(`set a ${fmtBytes(cover.byteLength)} PNG cover on a page not saved yet (click → cover saved; save + 3 steps)`, '/cover.png', false),
      await row(`set a ${fmtBytes(cover.byteLength)} PNG cover on a saved page, replacing its cover (lookup + 3 steps)`, '/cover.png', true),
      await row('set an SVG cover, converted to PNG in the offscreen document (page not saved)', '/drawing.svg', false),
    ];
  } finally {
    await browser?.close();
    await Promise.all([site.close(), server.stop()]);
  }
}

/** One cover set and waited for; answers the worker's ms from the click to the notification. */
async function timeOne(browser: ExtensionBrowser, tabId: number, srcUrl: string): Promise<number> {
  const before = (await notifications(browser)).length;
  const clickedAt = await clickSetAsCover(browser, tabId, srcUrl);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const note = (await notifications(browser))[before];
    if (note) {
      if (!/cover/i.test(note.title) || note.title.startsWith('Cover not set')) throw new Error(`${note.title} ${note.message}`);
      return note.at - clickedAt;
    }
    if (Date.now() > deadline) throw new Error('no notification within 30 s of the click');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

