import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { collectionsSection } from './collections.ts';
import { coverSection } from './cover.ts';
import { duplicatesSection } from './duplicates.ts';
import { extensionSection } from './extension.ts';
import { firefoxSection } from './firefox.ts';
import { indexCatchUpSection } from './index-catch-up.ts';
import { exportSection, importSection } from './jobs.ts';
import { linkCheckSection } from './link-check.ts';
import { optionsSection } from './options.ts';
import { postgresSection } from './postgres.ts';
import { reliabilitySection } from './reliability.ts';
import { libraryPageSection } from './library-page.ts';
import { sidePanelSection } from './side-panel.ts';
import { scaleSection } from './scale.ts';
import { smartFolderSection } from './smart-folder.ts';
import { startupSection } from './startup.ts';
import { tagsSection } from './tags.ts';
import { type Row, failureRow, fmtCount, fmtMs, renderTable } from './table.ts';
import { throughputSection } from './throughput.ts';
import { type BenchSettings, LIBRARY_SIZE, SETTINGS, type Workspace, prepareWorkspace } from './workspace.ts';

/**
 * `npm run bench [-- --quick] [-- --only http,startup,smart-folder,tags,collections,link-check,export,import,extension,index-catch-up,side-panel,library-page,firefox,options,duplicates,cover,reliability,scale,postgres]`:
 * the server's HTTP figures; import, export, smart-folder and tags figures; and the
 * extension's popup start-up, size and request counts, as one Markdown table on
 * stdout (progress on stderr). Exit code 1 when a target
 * fails or a measurement errs; an endpoint not built yet is "not available", not a failure.
 */
const SECTIONS: Record<string, (ws: Workspace, s: BenchSettings) => Promise<Row[]>> = {
  http: throughputSection,
  startup: startupSection,
  'smart-folder': smartFolderSection,
  tags: tagsSection,
  collections: collectionsSection,
  'link-check': linkCheckSection,
  export: exportSection,
  import: importSection,
  extension: extensionSection,
  'index-catch-up': indexCatchUpSection,
  'side-panel': sidePanelSection,
  'library-page': libraryPageSection,
  firefox: firefoxSection,
  options: optionsSection,
  duplicates: duplicatesSection,
  cover: coverSection,
  reliability: reliabilitySection,
  scale: scaleSection,
  postgres: postgresSection,
};

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
  strict: true,
});
const settings = SETTINGS[values.quick ? 'quick' : 'full'];
const chosen = values.only?.split(',').map((s) => s.trim()) ?? Object.keys(SECTIONS);
const unknown = chosen.filter((name) => !(name in SECTIONS));
if (unknown.length > 0) {
  console.error(`bench: unknown section ${unknown.join(', ')}; the sections are ${Object.keys(SECTIONS).join(', ')}`);
  process.exit(2);
}

const started = performance.now();
const loadBefore = loadavg()[0]!;
progress(`preparing: ${fmtCount(LIBRARY_SIZE)} bookmarks seeded into a template data directory`);
const ws = await prepareWorkspace();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    ws.remove();
    process.exit(130);
  });
}

const rows: Row[] = [];
try {
  for (const name of chosen) {
    progress(`running: ${name}`);
    const run = SECTIONS[name]!;
    rows.push(...(await run(ws, settings).catch((err: unknown) => [failureRow({ section: name, measurement: 'the whole section', target: '' }, err)])));
  }
} finally {
  ws.remove();
}

const { load, listLoad } = settings;
const cores = cpus().length;
const loadAfter = loadavg()[0]!;
console.log(
  [
    `Shelf benchmarks: \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\`, ${new Date().toISOString().slice(0, 10)}`,
    `Node ${process.version}, ${cores} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, load average ${loadBefore.toFixed(1)} before / ` +
      `${loadAfter.toFixed(1)} after.${Math.max(loadBefore, loadAfter) > cores ? ' **The machine was busy with other work: figures are pessimistic.**' : ''}`,
    `Load: wrk (1 thread), ${load.connections} connections, ${load.rounds} rounds per target in turns, each ${load.warmupSeconds} s warm-up + ` +
      `${load.durationSeconds} s measured (the median round reported); the HTTP list and its baselines ${listLoad.rounds} rounds, each ${listLoad.warmupSeconds} s warm-up + ` +
      `${listLoad.durationSeconds} s measured (medians of the rounds); loopback; each server in its own process (Shelf with --raise-limits). Library: ${fmtCount(LIBRARY_SIZE)} ` +
      `bookmarks, ${fmtCount(ws.library.tags.length)} tags, ${ws.library.collections.length} collections, seeded by SQL.`,
    '',
    renderTable(rows),
    '',
    `Total ${fmtMs(performance.now() - started)}.`,
  ].join('\n'),
);
process.exitCode = rows.some((r) => r.verdict === 'FAIL' || r.verdict === 'ERROR') ? 1 : 0;

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
