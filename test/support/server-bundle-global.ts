import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from '../../scripts/server-bundle.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the run's bundle of the server is, for the files that start it as a process (see shelfScript). */
export const SERVER_BUNDLE_ENV = 'SHELF_TEST_SERVER_BUNDLE';

/**
 * For a global setup: the server bundled once for the run, named in the environment the test workers inherit. A
 * server started from the bundle costs a third of the CPU of one started through tsx (0.7 s against 2.0 s here), and
 * the browser tests start dozens. Its own directory, not dist/server/, which a server test builds again meanwhile.
 * Returns the teardown (nothing to do when an earlier project's setup made the bundle).
 */
export async function provideServerBundle(): Promise<() => void> {
  if (process.env[SERVER_BUNDLE_ENV]) return () => {};
  // Inside the repository, where the packages left out of the bundle (better-sqlite3, pg) resolve from node_modules.
  mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(REPO_ROOT, '.tmp', 'test-server-bundle-'));
  // .../server/main.js: test/support/server-process.ts knows the Shelf server by that path.
  const out = join(dir, 'server');
  await bundleServer(out);
  process.env[SERVER_BUNDLE_ENV] = out;
  return () => {
    delete process.env[SERVER_BUNDLE_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}

/** How to run one of the server's commands: from the run's bundle where there is one, else from source through tsx. */
export function shelfScript(name: 'main' | 'admin'): { script: string; nodeArgs: string[] } {
  const bundle = process.env[SERVER_BUNDLE_ENV];
  return bundle ? { script: join(bundle, `${name}.js`), nodeArgs: [] } : { script: `server/${name}.ts`, nodeArgs: ['--import', 'tsx'] };
}

/** The Shelf server in its own process (`server/main --port 0 ...args` in practice), from the run's bundle where there is one. */
export function startShelfServer(args: string[]): Promise<ServerProcess> {
  const main = shelfScript('main');
  return startServerProcess(main.script, args, main.nodeArgs);
}
