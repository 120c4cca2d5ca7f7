// Temporary probe (not committed): timelines of side panel / options loads.
import { type ExtensionBrowser, launchExtension, signInThroughOptions } from '../test/browser/support.ts';
import { buildHelloPage, quiet, startCountingProxy } from './extension-support.ts';
import { startShelfServer } from './processes.ts';
import { prepareWorkspace } from './workspace.ts';
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../server/db/database.ts';
import { newId } from '../server/ids.ts';
import { findOrCreateTags } from '../server/store/sqlite/tag-rows.ts';

const PROBE = `(() => {
  if (location.protocol !== 'chrome-extension:') return;
  const log = (window.__log = []);
  const t = () => performance.now();
  const wrap = (obj, name, label) => { const orig = obj[name].bind(obj); obj[name] = (...a) => { const s = t(); const p = orig(...a); const tag = label(a); performance.mark('start ' + tag); if (p && p.then) p.then(() => { performance.mark('end ' + tag); log.push([tag, +s.toFixed(1), +t().toFixed(1)]); }); else log.push([tag, +s.toFixed(1), -1]); return p; }; };
  try { wrap(chrome.runtime, 'sendMessage', (a) => 'msg:' + (a[0] && a[0].name)); } catch (e) {}
  try { wrap(chrome.storage.local, 'get', (a) => 'get:' + JSON.stringify(a[0])); } catch (e) {}
  try { wrap(chrome.tabs, 'query', () => 'tabs.query'); } catch (e) {}
  const sel = window.__sel || '[role="region"] li a[href], [role="tree"] [role="treeitem"]';
  const obs = new MutationObserver(() => {
    if (window.__readyAt !== undefined) return;
    const ready = document.querySelector(sel) || Array.from(document.querySelectorAll('button')).some((b) => b.textContent.trim() === 'Save');
    if (!ready) return; window.__readyAt = performance.now(); performance.mark('READY'); obs.disconnect();
  });
  obs.observe(document, { subtree: true, childList: true });
  document.addEventListener('DOMContentLoaded', () => { window.__dcl = t(); });
})();`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeline(b: ExtensionBrowser, url: string) {
  const page = await b.context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => (window as any).__readyAt, undefined, { timeout: 30_000 });
  const out = await page.evaluate(() => {
    const w = window as any;
    const res = performance.getEntriesByType('resource').map((e: any) => [e.name.split('/').pop(), +e.startTime.toFixed(1), +e.responseEnd.toFixed(1)]);
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
    return { ready: w.__readyAt, dcl: w.__dcl, fcp, res, log: w.__log };
  });
  await page.close();
  return out;
}

async function trace(b: ExtensionBrowser, url: string, file: string) {
  const page = await b.context.newPage();
  const cdp = await b.context.newCDPSession(page);
  const events: unknown[] = [];
  cdp.on('Tracing.dataCollected', (e: any) => events.push(...e.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { categories: 'disabled-by-default-v8.cpu_profiler,devtools.timeline,v8,v8.execute,disabled-by-default-devtools.timeline,blink.user_timing,loading', transferMode: 'ReportEvents' } as any);
  await page.goto(url);
  await page.waitForFunction(() => (window as any).__readyAt, undefined, { timeout: 30_000 });
  await page.waitForTimeout(300);
  await cdp.send('Tracing.end');
  await done;
  (await import('node:fs')).writeFileSync(file, JSON.stringify(events));
  console.log('trace', file, 'ready', await page.evaluate(() => (window as any).__readyAt));
  await page.close();
}

const ws = await prepareWorkspace();
try {
  const helloDir = await buildHelloPage(ws);
  const dir = ws.seededDir('probe');
  if (process.env.TREES) growTreesForProbe(dir);
  const server = await startShelfServer(dir);
  const proxy = await startCountingProxy(new URL(server.url).origin);
  const b = await launchExtension({ extraPages: { 'bench-hello': helloDir } });
  try {
    await b.context.addInitScript({ content: PROBE });
    (await signInThroughOptions(b, `${proxy.origin}/v1`, ws.token)).close();
    await quiet(proxy);
    await (await b.worker()).evaluate((kept) => (globalThis as any).chrome.storage.local.set({ sidePanelPlace: kept }), { kind: 'list', source: { kind: 'all' }, title: 'All bookmarks' });
    const urls = (process.env.URLS ?? 'sidepanel.html').split(',');
    const n = Number(process.env.N ?? 9);
    for (const u of urls) {
      for (let i = 0; i < 2; i++) { await timeline(b, b.url(u)); await timeline(b, b.url('bench-hello/index.html')); }
      const runs = [] as Awaited<ReturnType<typeof timeline>>[];
      const hello = [] as number[];
      for (let i = 0; i < n; i++) { runs.push(await timeline(b, b.url(u))); hello.push((await timeline(b, b.url('bench-hello/index.html'))).ready); }
      const m = median(runs.map((r) => r.ready));
      console.log(`${u}: ready median ${m.toFixed(1)} hello ${median(hello).toFixed(1)} ratio ${(m / median(hello)).toFixed(2)}`);
      const mid = runs.find((r) => r.ready === m)!;
      console.log(JSON.stringify({ dcl: mid.dcl, fcp: mid.fcp, log: mid.log }, null, 0));
      if (process.env.TRACE) await trace(b, b.url(u), process.env.TRACE + '-' + u.replace(/\W/g, '_') + '.json');
      if (process.env.TRACE) await trace(b, b.url('bench-hello/index.html'), process.env.TRACE + '-hello.json');
    }
  } finally {
    await b.close();
    await Promise.all([proxy.close(), server.stop()]);
  }
} finally {
  ws.remove();
}

function growTreesForProbe(dataDir: string): { collections: number; tags: number } {
  const db = openDatabase(dataDir);
  try {
    const userId = db.prepare<[], { id: string }>('SELECT id FROM users ORDER BY created_at LIMIT 1').get()!.id;
    const count = (table: 'collections' | 'tags') => db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).get()!.n;
    const now = Date.now();
    db.transaction(() => {
      const add = db.prepare('INSERT INTO collections (id, user_id, name, parent_id, sort_order, share_slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      const roots: string[] = [];
      for (let i = count('collections'); i < 1000; i++) {
        const id = newId('col');
        // Ten children under each root, a third of them one level deeper.
        const parent = i % 10 === 0 ? null : (roots.at(-1) ?? null);
        add.run(id, userId, `Collection ${i}`, parent, i, randomBytes(8).toString('hex'), now, now);
        if (parent === null) roots.push(id);
      }
      const names: string[] = [];
      for (let i = 0; names.length + count('tags') < 2000; i++) names.push(i % 4 === 0 ? `area-${i}` : `area-${i - (i % 4)}/topic-${i}`);
      findOrCreateTags(db, userId, names, now);
    })();
    return { collections: count('collections'), tags: count('tags') };
  } finally {
    db.close();
  }
}

