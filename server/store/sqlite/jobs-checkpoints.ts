import type { Db } from '../../db/database.ts';

/**
 * WAL pages written before SQLite checkpoints while an import runs. An import commits
 * every 50 bookmarks, and each commit dirties pages all over the bookmarks indexes; at the
 * default (1,000 pages) a 10,000-bookmark import checkpoints some 30 times, each with two
 * fsyncs, which costs more than the inserts themselves. At 10,000 pages (about 40 MB of
 * WAL) it checkpoints a few times.
 */
const IMPORT_CHECKPOINT_PAGES = 10_000;

const holders = new WeakMap<Db, { count: number; usual: number }>();

/**
 * Defers the database's automatic checkpoints while at least one import holds them;
 * the returned release (once per hold) restores the usual setting and, when no import
 * is left, checkpoints and truncates the WAL that grew meanwhile.
 */
export function deferCheckpoints(db: Db): () => void {
  const held = holders.get(db) ?? { count: 0, usual: db.pragma('wal_autocheckpoint', { simple: true }) as number };
  if (held.count === 0) db.pragma(`wal_autocheckpoint = ${IMPORT_CHECKPOINT_PAGES}`);
  held.count++;
  holders.set(db, held);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.count--;
    if (held.count > 0) return;
    db.pragma(`wal_autocheckpoint = ${held.usual}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
  };
}
