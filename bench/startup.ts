import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startServerProcess } from '../test/support/server-process.ts';
import { median } from './stats.ts';
import { type Row, fmtBytes, fmtCount, fmtMs, measured, verdict } from './table.ts';
import { LIBRARY_SIZE, type Workspace } from './workspace.ts';

const SECTION = 'start-up';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Starts of each kind, taken in turns so that a busy moment of the machine weighs on both alike. */
const RUNS = 9;

interface Kind {
  label: string;
  script: string;
  nodeArgs: string[];
}
const TSX: Kind = { label: 'node --import tsx server/main.ts (npm run server)', script: 'server/main.ts', nodeArgs: ['--import', 'tsx'] };
const BUNDLE: Kind = { label: 'node dist/server/main.js (npm run serve)', script: 'dist/server/main.js', nodeArgs: [] };

/**
 * Issue 8: how long the server takes from process spawn to its `listening`
 * line, run through tsx beside the production bundle (npm run build:server,
 * built here first), on a copy of the seeded library, with its RSS at that moment.
 */
export async function startupSection(ws: Workspace): Promise<Row[]> {
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: ROOT });
  const dataDir = ws.seededDir('startup');
  const samples = new Map<Kind, { ms: number[]; rss: number[] }>([
    [TSX, { ms: [], rss: [] }],
    [BUNDLE, { ms: [], rss: [] }],
  ]);
  // One start of each first, unmeasured: the disk cache then holds both alike.
  for (const kind of samples.keys()) await startOnce(kind, dataDir);
  for (let i = 0; i < RUNS; i++) {
    for (const [kind, sample] of samples) {
      const { ms, rss } = await startOnce(kind, dataDir);
      sample.ms.push(ms);
      if (rss !== null) sample.rss.push(rss);
    }
  }
  const tsx = median(samples.get(TSX)!.ms);
  const row = (kind: Kind, target: string, judge: (ms: number) => Pick<Row, 'beside' | 'verdict'>) =>
    measured({ section: SECTION, measurement: `${kind.label}: spawn → listening, ${fmtCount(LIBRARY_SIZE)} bookmarks`, target }, async () => {
      const { ms, rss } = samples.get(kind)!;
      const range = `${fmtMs(Math.min(...ms))}–${fmtMs(Math.max(...ms))}`;
      const memory = rss.length > 0 ? ` · RSS ${fmtBytes(median(rss))}` : '';
      return { result: `median ${fmtMs(median(ms))} (${range}, ${ms.length} starts)${memory}`, ...judge(median(ms)) };
    });
  return [
    await row(TSX, '', () => ({ beside: '', verdict: '' })),
    await row(BUNDLE, 'faster than through tsx', (ms) => ({
      beside: `${(ms / tsx).toFixed(2)} × the tsx start (${fmtMs(tsx)})`,
      verdict: verdict(ms < tsx),
    })),
  ];
}

async function startOnce(kind: Kind, dataDir: string): Promise<{ ms: number; rss: number | null }> {
  const started = performance.now();
  const server = await startServerProcess(kind.script, ['--port', '0', '--data', dataDir], kind.nodeArgs);
  const ms = performance.now() - started;
  const rss = server.rssBytes();
  await server.stop();
  return { ms, rss };
}
