import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { COPY_HELP } from './cli-help.ts';
import { copyLibrary } from './copy/copy-library.ts';
import { openDatabase } from './db/database.ts';
import { openPostgres } from './db/postgres/connect.ts';

/**
 * Moves a self-hosted library to PostgreSQL: copies the SQLite database of a data directory
 * (stop its server first) into an empty PostgreSQL database, all of it or nothing, and prints
 * one JSON object with the rows copied per table.
 */

const USAGE = 'usage: npm run --silent copy-to-postgres -- --data DIR --database postgres://USER@HOST:PORT/DB';

function fail(message: string, code: number): never {
  console.error(`copy-to-postgres: ${message}`);
  if (code === 2) console.error(USAGE);
  process.exit(code);
}

const { values } = (() => {
  try {
    return parseArgs({
      args: process.argv.slice(2).filter((arg) => arg !== '--'),
      options: { data: { type: 'string' }, database: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
  } catch (err) {
    return fail((err as Error).message, 2);
  }
})();

if (values.help) {
  console.log(COPY_HELP);
  process.exit(0);
}
const dataDir = values.data?.trim() ? resolve(values.data.trim()) : fail('--data is required', 2);
const url = values.database?.trim() || process.env.DATABASE_URL || fail('--database (or DATABASE_URL) is required', 2);
if (!/^postgres(ql)?:\/\/\S+$/.test(url)) fail('--database must be a URL like postgres://USER@HOST:PORT/DB', 2);
// A mistyped --data must not quietly become a new, empty library copied over.
if (!existsSync(join(dataDir, 'shelf.db'))) fail(`${dataDir} holds no shelf.db: give the directory the server uses`, 2);

const started = Date.now();
try {
  const from = openDatabase(dataDir);
  const to = await openPostgres(url);
  try {
    const tables = await to.transaction(async (tx) => {
      if ((await tx.get('SELECT 1 AS one FROM users LIMIT 1')) !== undefined) {
        throw new Error('the PostgreSQL database already holds a library; copy into an empty one');
      }
      return copyLibrary(from, tx, ({ table, rows }) => console.error(`copied ${rows} rows of ${table}`));
    });
    console.log(JSON.stringify({ copied: Object.fromEntries(tables.map((t) => [t.table, t.rows])), ms: Date.now() - started }));
  } finally {
    from.close();
    await to.close();
  }
} catch (err) {
  fail((err as Error).message, 1);
}
