import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** The entry points bundled, each to `<name>.js`. */
const ENTRIES = {
  main: 'server/main.ts',
  admin: 'server/admin.ts',
  'copy-to-postgres': 'server/copy-to-postgres.ts',
  // Started as threads by server/store/sqlite/store-thread.ts, which looks for them beside itself.
  'tag-rename-worker': 'server/store/sqlite/tag-rename-worker.ts',
  'collection-list-worker': 'server/store/sqlite/collection-list-worker.ts',
};

const root = new URL('../', import.meta.url).pathname;

/**
 * The server, the admin command and copy-to-postgres bundled into `out` (emptied first), to run with plain node
 * (no TypeScript compiler at run time). better-sqlite3 stays outside: it loads a native module built for this machine.
 * Returns the bundled files' names.
 */
export async function bundleServer(out: string): Promise<string[]> {
  rmSync(out, { recursive: true, force: true });
  const { metafile } = await build({
    entryPoints: ENTRIES,
    absWorkingDir: root,
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // pg-native: pg's optional binding, which it loads only when asked for (never here).
    external: ['better-sqlite3', 'pg-native'],
    sourcemap: true,
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as shelfCreateRequire } from 'node:module'; const require = shelfCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    metafile: true,
  });
  // What each output file imports from outside the bundle: a test holds it to Node's own modules and better-sqlite3.
  writeFileSync(join(out, 'meta.json'), JSON.stringify(metafile));
  // The database module reads its migrations beside itself, which is now `out`.
  cpSync(join(root, 'server/db/migrations/'), join(out, 'migrations'), { recursive: true });
  cpSync(join(root, 'server/db/postgres/migrations/'), join(out, 'pg-migrations'), { recursive: true });
  return Object.keys(ENTRIES).map((name) => join(out, `${name}.js`));
}
