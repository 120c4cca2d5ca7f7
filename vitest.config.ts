import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

const EXTENSION_FILES = ['test/extension/**/*.test.ts', 'test/extension/**/*.test.tsx'];
/** The extension's files that mock or reload modules, found so that a new one cannot be forgotten. */
const MODULE_ALTERING_EXTENSION_FILES = readdirSync('test/extension', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file) && /vi\.(mock|resetModules)\(/.test(readFileSync(join('test/extension', file), 'utf8')))
  .map((file) => `test/extension/${file}`);

function extensionProject(test: { name: string; isolate: boolean; include: string[]; exclude?: string[] }) {
  return {
    plugins: [WxtVitest()],
    // WXT's stand-in for `wxt/browser` takes its fake browser from `wxt/testing`, which also exports the vitest
    // plugin and so loads WXT's whole build toolchain (vite, magicast: 2.4 s of every file's 4 s of imports).
    resolve: { alias: [{ find: /^wxt\/testing$/, replacement: 'wxt/testing/fake-browser' }] },
    test: { ...test, environment: 'happy-dom', testTimeout: 20_000, hookTimeout: 30_000 },
  };
}

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Vitest's default (one less than the cores) is one file at a time on a 2-core machine, and many files here
    // mostly wait (rate windows, child processes, a browser): with one file per core the run used 1.45 of 2 cores.
    maxWorkers: availableParallelism() + 1,
    // The server's files share each worker's loaded modules (`isolate: false` in their projects): each file starts
    // servers of its own, whose state lives in the app each start builds (the modules hold only pure caches), and
    // loading the server again for every file was a third of those projects' CPU. So do the browser and Firefox files
    // (each launches a browser and a server of its own in its hooks; a fresh worker loading Playwright or Puppeteer took
    // 1.7-3.3 s of each file). So do the extension's files: each resets the fake browser before its tests and renders
    // its pages through their mount functions, and the DOM (test/extension/support/dom.ts) is one per worker, emptied
    // after each file (testing-library's `screen` is bound to the first document's body); alone, 112 s of CPU
    // instead of 165.
    projects: [
      {
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts', 'test/lib/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          // The files that start the server as a process start it from one bundle made for the run (server-bundle-global.ts).
          globalSetup: ['test/support/server-bundle-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The server tests whose subject is what Redis holds for the hosted mode, again, each file with a
        // redis-server of its own holding the limits, the blocks and the test clock: the per-user, per-address and
        // heavy-endpoint limits (limits, http's headers, idempotency's budget, smart-folder evaluations, cover
        // uploads, imports and exports), the address blocks and failed sign-ins (ip-block, auth, blocks- and
        // guards-remembered), the storage quota's counts, and the clock moved through Redis (the trash's retention).
        // The other server files take the limits' one path for every request, the same on Redis as in memory: run
        // here too, they were 40 of the project's 72 s of CPU for no path of their own.
        test: {
          name: 'server-redis',
          isolate: false,
          include: ['test/server/{limits,http,idempotency,smart-folders,covers,import,export,ip-block,auth,blocks-remembered,guards-remembered,storage-limits,bookmarks-trash}.test.ts'],
          setupFiles: ['test/support/redis-setup.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The server tests again, each test server on a database of its own in one throwaway PostgreSQL
        // cluster started for the run; less those that start no in-process server, start their own
        // backends, or read SQLite's own files.
        test: {
          name: 'server-postgres',
          isolate: false,
          include: ['test/server/**/*.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            'test/server/interchange/**',
            'test/server/postgres/**',
            // export-fencing reads every attempt's file through the store's listing, which on PostgreSQL leaves out
            // files written in the last hour (a writer may still be adding to them); its fencing runs in job-leases there.
            'test/server/export-fencing.test.ts',
            // read-input is the router's memory of each URL's parsed input (600 reads to pass its 500), the same on any store.
            'test/server/{admin-postgres,cli,collection-list-backends,config-redis,copy-to-postgres,job-leases,limit-store,metadata,migration-011,postgres-outage,read-input,redis-outage,selfhost,shared-clock,smart-folders-units,sqlite-shared,store-version,tag-tree-units,trigram-fold}.test.ts',
          ],
          globalSetup: ['test/support/postgres-global.ts', 'test/support/server-bundle-setup.ts'],
          setupFiles: ['test/support/postgres-setup.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The hosted mode under its faults (test/faults/): two instances on PostgreSQL and Redis behind a balancer,
        // Redis killed and restarted, PostgreSQL restarted, each under load; one file, its own backends.
        test: {
          name: 'faults',
          include: ['test/faults/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/server-bundle-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
      extensionProject({ name: 'extension', isolate: false, include: EXTENSION_FILES, exclude: [...configDefaults.exclude, ...MODULE_ALTERING_EXTENSION_FILES] }),
      // A file that mocks or reloads modules needs modules loaded for it alone. In a worker shared with a file that
      // loaded the real module first, a mock never applied (the library page's card count, after the side panel's
      // file). And `vi.resetModules` loaded the DOM module again for the worker's next file: a second document, while
      // testing-library's `screen` (loaded by Node, not reset) still read the first one's empty body.
      extensionProject({ name: 'extension-isolated', isolate: true, include: MODULE_ALTERING_EXTENSION_FILES }),
      {
        // Real Chromium with the built extension (global-setup builds it when stale); files run side by side,
        // each with its own browser, server and data: the fault tests spend minutes waiting for rate windows.
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          globalSetup: ['test/browser/global-setup.ts'],
          fileParallelism: true,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Real Firefox ESR with the built Firefox extension, over WebDriver BiDi (test/firefox/support.ts). The files of
        // a worker share one Firefox (a start and stop cost some 6 s of CPU), each file's user with the add-on installed
        // afresh; they share their scenarios with the Chromium tests (test/scenarios).
        test: {
          name: 'firefox',
          include: ['test/firefox/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          globalSetup: ['test/firefox/global-setup.ts'],
          fileParallelism: true,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
