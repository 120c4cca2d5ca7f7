import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeDir, shellEnv, tempDir } from '../browser/support.ts';

const run = promisify(execFile);

/** Every file under dir, as paths relative to it, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** python3's zipfile (the CI installs python3 already): no unzip needed. */
const unzip = (zip: string, to: string) => run('python3', ['-m', 'zipfile', '-e', zip, to]);

/**
 * What AMO's reviewer does with the sources zip (README, Firefox): unpack it, run the documented build
 * (`npm ci`, here the project's node_modules by a symlink, then `npx wxt build -b firefox --mv3`), and compare
 * the result with the package that was uploaded, file by file.
 */
describe('the Firefox sources zip', () => {
  const dir = tempDir('shelf-sources-zip-');
  // A server's data directory in the checkout, as `npm run server` makes it: never packed.
  const dataDir = join(REPO_ROOT, 'data');
  const probe = join(dataDir, `zip-probe-${process.pid}.db`);
  const madeDataDir = !existsSync(dataDir);
  afterAll(() => {
    removeDir(dir);
    if (madeDataDir) rmSync(dataDir, { recursive: true, force: true });
    else rmSync(probe, { force: true });
  });

  it('rebuilds the uploaded firefox-mv3 package byte for byte with the documented build command', { timeout: 300_000 }, async () => {
    // `npm run zip`'s Firefox half, into a folder of the test's own so that the project's .output is left alone.
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(probe, 'a user database');
    const zipped = join(dir, 'zipped');
    await run(process.execPath, ['--input-type=module', '-e', `import { zip } from 'wxt'; await zip({ browser: 'firefox', manifestVersion: 3, outDir: ${JSON.stringify(zipped)} });`], {
      cwd: REPO_ROOT,
      env: shellEnv,
      maxBuffer: 16 * 1024 * 1024,
    });
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const uploaded = join(dir, 'uploaded');
    const sources = join(dir, 'sources');
    await Promise.all([unzip(join(zipped, `shelf-${version}-firefox.zip`), uploaded), unzip(join(zipped, `shelf-${version}-sources.zip`), sources)]);
    // The sources are the project's own: no build output, dependency or data folder came with them.
    expect(readdirSync(sources).filter((name) => ['.output', 'node_modules', 'data', 'dist', '.wxt'].includes(name))).toEqual([]);
    expect(filesUnder(sources).filter((name) => /shelf\.db/.test(name))).toEqual([]);
    expect(filesUnder(sources)).toEqual(expect.arrayContaining(['package.json', 'wxt.config.ts', 'entrypoints/popup/App.tsx']));

    symlinkSync(join(REPO_ROOT, 'node_modules'), join(sources, 'node_modules'));
    await run(join(sources, 'node_modules', '.bin', 'wxt'), ['build', '-b', 'firefox', '--mv3'], { cwd: sources, env: shellEnv, maxBuffer: 16 * 1024 * 1024 });

    const rebuilt = join(sources, '.output', 'firefox-mv3');
    const files = filesUnder(uploaded);
    expect(files).toContain('manifest.json');
    expect(filesUnder(rebuilt)).toEqual(files);
    const differing = files.filter((file) => !readFileSync(join(rebuilt, file)).equals(readFileSync(join(uploaded, file))));
    expect(differing).toEqual([]);
  });
});
