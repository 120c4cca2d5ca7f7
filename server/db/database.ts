import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-modes.ts';

export type Db = Database.Database;

const migrationsDir = new URL('./migrations/', import.meta.url);

/** Opens (creating when new) the database in the data directory and brings its schema up to date. */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const path = join(dataDir, 'shelf.db');
  // Created here with its mode, since SQLite would create it world-readable; its -wal and -shm files take the same mode.
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  db.exec('CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const applied = new Set(db.prepare('SELECT name FROM migrations').pluck().all() as string[]);
  const files = readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = readFileSync(new URL(file, migrationsDir), 'utf8');
    db.transaction(() => {
      db.exec(sql);
      db.prepare('INSERT INTO migrations (name, applied_at) VALUES (?, ?)').run(file, Date.now());
    })();
  }
}
