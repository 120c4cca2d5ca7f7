import { spawn } from 'node:child_process';
import { BROWSER_LANE, CODE_LANE } from '../test/lanes.ts';

/**
 * npm test: the build first (the browser tests load it), then the vitest projects in two lanes side by side, with
 * the checks beside them.
 * - The browsers' lane (Chromium, Firefox, the hosted faults) mostly waits: on rate windows, browsers, restarts.
 *   The code's lane (the server projects, the extension's components) keeps a core busy. Run one after the other,
 *   as one queue did, the cores idled through the browser files and were short through the server files; side by
 *   side each fills the other's slack. Two files at a time in each lane.
 * - The type check, ESLint and web-ext lint run in what slack is left, one after another.
 * The code's lane prints as it goes; the browsers' lane and each check are held and printed whole at the end, so
 * nothing interleaves. Arguments go to one vitest over every project (`npm test -- --project server`).
 */

const LANES = [
  { step: `test:unit (${CODE_LANE.join(', ')})`, projects: CODE_LANE, live: true },
  { step: `test:unit (${BROWSER_LANE.join(', ')})`, projects: BROWSER_LANE, live: false },
];
const FILES_AT_ONCE_PER_LANE = '2';

interface Outcome {
  step: string;
  ok: boolean;
  output: string;
  seconds: number;
}

/** `npm run <script>`: its output held (or shown as it comes when `live`), and how it ended. */
function run(script: string, live = false, extra: string[] = [], step = script): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const args = ['run', '--silent', script, ...(extra.length > 0 ? ['--', ...extra] : [])];
    const child = spawn('npm', args, { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    const end = (ok: boolean, why = '') =>
      resolve({ step, ok, output: Buffer.concat(chunks).toString() + why, seconds: Math.round((Date.now() - started) / 1000) });
    child.on('error', (err) => end(false, String(err)));
    child.on('close', (code, signal) => end(code === 0, code === 0 ? '' : `\n(${step} ended with ${signal ?? `exit code ${code}`})\n`));
  });
}

const line = (o: Outcome) => `npm test: ${o.step} ${o.ok ? 'passed' : 'FAILED'} in ${o.seconds} s`;

async function checks(): Promise<Outcome[]> {
  const done: Outcome[] = [];
  for (const script of ['lint:firefox', 'typecheck', 'lint']) {
    const outcome = await run(script);
    // One line as soon as it is known; its output waits for vitest's end.
    process.stderr.write(`\n${line(outcome)}\n`);
    done.push(outcome);
  }
  return done;
}

/** Vitest: one run with the caller's arguments, or else the two lanes, each line said as soon as it ends. */
async function tests(args: string[]): Promise<Outcome[]> {
  if (args.length > 0) return [await run('test:unit', true, args)];
  return Promise.all(
    LANES.map(async (lane) => {
      const projects = lane.projects.flatMap((project) => ['--project', project]);
      const outcome = await run('test:unit', lane.live, [...projects, '--maxWorkers', FILES_AT_ONCE_PER_LANE], lane.step);
      process.stderr.write(`\n${line(outcome)}\n`);
      return outcome;
    }),
  );
}

const build = await run('build');
const outcomes: Outcome[] = [build];
if (build.ok) {
  const [tested, checked] = await Promise.all([tests(process.argv.slice(2)), checks()]);
  outcomes.push(...tested, ...checked);
} else {
  // Without a build the browser tests cannot run; the checks still say what they find.
  outcomes.push(...(await checks()));
}

// What was shown live is not shown again.
const shownLive = new Set(['test:unit', ...LANES.filter((lane) => lane.live).map((lane) => lane.step)]);
for (const o of outcomes.filter((o) => !shownLive.has(o.step))) {
  if (o.output.trim() !== '') process.stdout.write(`\n---- ${o.step} (${o.ok ? 'passed' : 'FAILED'})\n${o.output.trimEnd()}\n`);
}
process.stdout.write(`\n${outcomes.map(line).join('\n')}\n`);
const failed = outcomes.filter((o) => !o.ok).map((o) => o.step);
if (!build.ok) failed.push('test:unit (not run: the build failed)');
if (failed.length > 0) {
  process.stderr.write(`npm test failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
