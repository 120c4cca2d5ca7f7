import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

/**
 * npm run build:server: the server and the admin command bundled once into
 * dist/server/, to run with plain node (no TypeScript compiler at run time).
 * better-sqlite3 stays outside: it loads a native module built for this machine. So does
 * pg-native, which pg requires only when asked for its native client (Shelf never does).
 */
const out = new URL('../dist/server/', import.meta.url).pathname;
rmSync(out, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: { main: 'server/main.ts', admin: 'server/admin.ts' },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'pg-native'],
  sourcemap: true,
  // Bundled CommonJS packages call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as shelfCreateRequire } from 'node:module'; const require = shelfCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  metafile: true,
});
// What each output file imports from outside the bundle: a test holds it to Node's own modules, better-sqlite3 and pg-native.
writeFileSync(`${out}meta.json`, JSON.stringify(metafile));
// The database module reads its migrations beside itself, which is now dist/server/.
cpSync(new URL('../server/db/migrations/', import.meta.url).pathname, `${out}migrations`, { recursive: true });
// PostgreSQL's migrations too, under a name of their own (server/db/postgres/connect.ts looks there first).
cpSync(new URL('../server/db/postgres/migrations/', import.meta.url).pathname, `${out}postgres-migrations`, { recursive: true });
console.log(`built ${out}main.js and ${out}admin.js`);
