import { spawn } from 'node:child_process';

/**
 * npm test: the build first (the browser tests load it), then the vitest projects with the checks beside them.
 * Vitest leaves part of a core idle on a 2-core machine (its files mostly wait on browsers, servers and clocks),
 * so the type check, ESLint and web-ext lint run in that slack, one after another, instead of minutes before it.
 * Vitest prints as it goes; each check's output is held and printed whole at the end, so nothing interleaves.
 * Arguments go to vitest (`npm test -- --project server`).
 */

interface Outcome {
  step: string;
  ok: boolean;
  output: string;
  seconds: number;
}

/** `npm run <script>`: its output held (or shown as it comes when `live`), and how it ended. */
function run(script: string, live = false, extra: string[] = []): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const args = ['run', '--silent', script, ...(extra.length > 0 ? ['--', ...extra] : [])];
    const child = spawn('npm', args, { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    const end = (ok: boolean, why = '') =>
      resolve({ step: script, ok, output: Buffer.concat(chunks).toString() + why, seconds: Math.round((Date.now() - started) / 1000) });
    child.on('error', (err) => end(false, String(err)));
    child.on('close', (code, signal) => end(code === 0, code === 0 ? '' : `\n(${script} ended with ${signal ?? `exit code ${code}`})\n`));
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

const build = await run('build');
const outcomes: Outcome[] = [build];
if (build.ok) {
  const [tests, checked] = await Promise.all([run('test:unit', true, process.argv.slice(2)), checks()]);
  outcomes.push(tests, ...checked);
} else {
  // Without a build the browser tests cannot run; the checks still say what they find.
  outcomes.push(...(await checks()));
}

for (const o of outcomes.filter((o) => o.step !== 'test:unit')) {
  if (o.output.trim() !== '') process.stdout.write(`\n---- ${o.step} (${o.ok ? 'passed' : 'FAILED'})\n${o.output.trimEnd()}\n`);
}
process.stdout.write(`\n${outcomes.map(line).join('\n')}\n`);
const failed = outcomes.filter((o) => !o.ok).map((o) => o.step);
if (!build.ok) failed.push('test:unit (not run: the build failed)');
if (failed.length > 0) {
  process.stderr.write(`npm test failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
