import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { AdminOutput } from '../admin/main.ts';
import { UsageError } from '../admin/usage-error.ts';
import { COPY_HELP } from '../cli-help.ts';
import { openDatabase } from '../db/database.ts';
import { openPostgres } from '../db/postgres/connect.ts';
import { DiskFileBytes, isFileId } from '../storage/disk.ts';
import { PgFileBytes } from '../store/postgres/files.ts';
import { copyFileBytes } from './copy-files.ts';
import { copyLibrary } from './copy-library.ts';

/**
 * Moves a self-hosted library to PostgreSQL: copies the SQLite database of a data directory
 * (stop its server first) into an empty PostgreSQL database, all of it or nothing, and prints
 * one JSON object with the rows copied per table. Answers the exit code.
 */

const USAGE = 'usage: npm run --silent copy-to-postgres -- --data DIR --database postgres://USER@HOST:PORT/DB';

/** The environment variables the command reads (DATABASE_URL). */
type Env = Record<string, string | undefined>;

function parse(argv: string[], env: Env): { help: true } | { help: false; dataDir: string; url: string } {
  let values: { data?: string; database?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv.filter((arg) => arg !== '--'),
      options: { data: { type: 'string' }, database: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return { help: true };
  const data = values.data?.trim();
  if (!data) throw new UsageError('--data is required');
  const dataDir = resolve(data);
  const url = values.database?.trim() || env.DATABASE_URL;
  if (!url) throw new UsageError('--database (or DATABASE_URL) is required');
  if (!/^postgres(ql)?:\/\/\S+$/.test(url)) throw new UsageError('--database must be a URL like postgres://USER@HOST:PORT/DB');
  // A mistyped --data must not quietly become a new, empty library copied over.
  if (!existsSync(join(dataDir, 'shelf.db'))) throw new UsageError(`${dataDir} holds no shelf.db: give the directory the server uses`);
  return { help: false, dataDir, url };
}

async function copy(dataDir: string, url: string, out: AdminOutput): Promise<void> {
  const started = Date.now();
  const from = openDatabase(dataDir);
  try {
    const to = await openPostgres(url);
    try {
      const result = await to.transaction(async (tx) => {
        if ((await tx.get('SELECT 1 AS one FROM users LIMIT 1')) !== undefined) {
          throw new Error('the PostgreSQL database already holds a library; copy into an empty one');
        }
        const copied = await copyLibrary(from, tx, ({ table, rows }) => out.error(`copied ${rows} rows of ${table}`));
        // The uploaded files' bytes too, in the same transaction: the instances on PostgreSQL share no disk.
        const recorded = from.prepare<[], string>('SELECT id FROM stored_files WHERE oversize = 0').pluck().all();
        const files = await copyFileBytes(recorded, new DiskFileBytes(join(dataDir, 'files'), isFileId), new PgFileBytes(tx, 'uploads'));
        out.error(`copied ${files.files} files (${files.bytes} bytes)`);
        return { copied, files };
      });
      // Statistics for the planner (and the search index's pending list flushed): without them it would
      // plan the first queries of a library it believes empty.
      await to.run('VACUUM ANALYZE');
      const copied = Object.fromEntries(result.copied.map((t) => [t.table, t.rows]));
      out.log(JSON.stringify({ copied, files: result.files, ms: Date.now() - started }));
    } finally {
      await to.close();
    }
  } finally {
    from.close();
  }
}

/** The command line `argv` (after the script's name): 0 when copied, 2 for a bad command line, 1 when the copy failed. */
export async function copyMain(argv: string[], env: Env, out: AdminOutput): Promise<number> {
  try {
    const parsed = parse(argv, env);
    if (parsed.help) {
      out.log(COPY_HELP);
      return 0;
    }
    await copy(parsed.dataDir, parsed.url, out);
    return 0;
  } catch (err) {
    out.error(`copy-to-postgres: ${(err as Error).message}`);
    if (err instanceof UsageError) {
      out.error(USAGE);
      return 2;
    }
    return 1;
  }
}
