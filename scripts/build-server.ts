import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

/**
 * npm run build:server: the server, the admin command and copy-to-postgres bundled once into
 * dist/server/, to run with plain node (no TypeScript compiler at run time).
 * better-sqlite3 stays outside: it loads a native module built for this machine.
 */
const out = new URL('../dist/server/', import.meta.url).pathname;
rmSync(out, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: {
    main: 'server/main.ts',
    admin: 'server/admin.ts',
    'copy-to-postgres': 'server/copy-to-postgres.ts',
    // Started as threads by server/store/sqlite/store-thread.ts, which looks for them beside itself.
    'tag-rename-worker': 'server/store/sqlite/tag-rename-worker.ts',
    'collection-list-worker': 'server/store/sqlite/collection-list-worker.ts',
  },
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
writeFileSync(`${out}meta.json`, JSON.stringify(metafile));
// The database module reads its migrations beside itself, which is now dist/server/.
cpSync(new URL('../server/db/migrations/', import.meta.url).pathname, `${out}migrations`, { recursive: true });
cpSync(new URL('../server/db/postgres/migrations/', import.meta.url).pathname, `${out}pg-migrations`, { recursive: true });
console.log(`built ${out}main.js, ${out}admin.js, ${out}copy-to-postgres.js, ${out}tag-rename-worker.js and ${out}collection-list-worker.js`);
