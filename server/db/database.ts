import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-modes.ts';

export type Db = Database.Database;

const migrationsDir = new URL('./migrations/', import.meta.url);

/** How long a statement waits for another process's write lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;
const OPENING_BUSY_TIMEOUT_MS = 60_000;

/**
 * Opens (creating when new) the database in the data directory and brings its schema up to date,
 * or, given `migrateBefore`, up to the migrations whose names sort before it: the bench seeds a
 * library that way, so that later migrations fill their indexes and counts in bulk, as they
 * would for a library that existed before them.
 */
export function openDatabase(dataDir: string, options: { migrateBefore?: string } = {}): Db {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const path = join(dataDir, 'shelf.db');
  // Created here with its mode, since SQLite would create it world-readable; its -wal and -shm files take the same mode.
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  const db = new Database(path);
  // First, so that what follows waits for another process (an instance starting at the same moment) rather than
  // failing: long enough for that one to apply every migration to a new database on a busy machine.
  db.pragma(`busy_timeout = ${OPENING_BUSY_TIMEOUT_MS}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  takeWriteLockFirst(db);
  migrate(db, options.migrateBefore);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}

/**
 * Makes `db.transaction(fn)()` begin IMMEDIATE (the write lock first) rather than
 * DEFERRED. Several instances may share the database file: a deferred transaction that
 * reads, then writes while another process holds the write lock fails at once with
 * SQLITE_BUSY (SQLite cannot let it wait: its snapshot would be stale), whereas an
 * immediate one waits its turn (busy_timeout) and then reads what the other committed.
 * Within one process nothing changes: the connection runs one statement at a time anyway.
 * A read-only transaction asks for `.deferred()`, so that it holds no other instance's writes back.
 */
function takeWriteLockFirst(db: Db): void {
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn) => {
    const t = transaction(fn);
    const run = (...params: Parameters<typeof t.immediate>) => t.immediate(...params);
    return Object.assign(run, { default: run, deferred: t.deferred, immediate: t.immediate, exclusive: t.exclusive });
  }) as Db['transaction'];
}

function migrate(db: Db, before?: string): void {
  db.exec('CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const applied = new Set(db.prepare('SELECT name FROM migrations').pluck().all() as string[]);
  const isApplied = db.prepare<[string], number>('SELECT 1 FROM migrations WHERE name = ?').pluck();
  const files = readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql') && (before === undefined || f < before))
    .sort();
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = readFileSync(new URL(file, migrationsDir), 'utf8');
    // Under the write lock, asked again: another instance starting at the same moment may have just applied it.
    db.transaction(() => {
      if (isApplied.get(file) !== undefined) return;
      db.exec(sql);
      db.prepare('INSERT INTO migrations (name, applied_at) VALUES (?, ?)').run(file, Date.now());
    }).immediate();
  }
}
