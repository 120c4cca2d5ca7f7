import type { Db } from '../db/database.ts';
import type { Sql } from '../db/postgres/pg.ts';

/**
 * The tables of a SQLite database in an order where every row's references come first. The
 * kept counts (bookmark_stats, domain_counts, url_key_counts and the active_count columns) are
 * not copied but counted afresh from the rows once they are all in (RECOUNT).
 */
const TABLES = [
  'users',
  'tokens',
  'collections',
  'bookmarks',
  'tags',
  'bookmark_tags',
  'idempotency_keys',
  'smart_folders',
  'upload_reservations',
  'stored_files',
  'jobs',
  'ip_blocks',
] as const;

const KEPT_COUNT_COLUMNS = new Set(['active_count']);
/** The tables whose triggers keep the counts: off while the rows arrive (a million bookmarks would each run them). */
const COUNTED_TABLES = ['bookmarks', 'bookmark_tags'];

/** Every kept count from the rows, in bulk: what the triggers would have summed row by row. */
const RECOUNT = [
  `UPDATE collections c SET active_count = n.count
   FROM (SELECT collection_id, count(*) AS count FROM bookmarks WHERE deleted_at IS NULL AND collection_id IS NOT NULL GROUP BY collection_id) n
   WHERE c.id = n.collection_id`,
  `UPDATE tags t SET active_count = n.count
   FROM (SELECT l.tag_id, count(*) AS count FROM bookmark_tags l JOIN bookmarks b ON b.id = l.bookmark_id AND b.deleted_at IS NULL GROUP BY l.tag_id) n
   WHERE t.id = n.tag_id`,
  `INSERT INTO bookmark_stats (user_id, total, favorites, unsorted, no_tags, link, article, video, image, document)
   SELECT b.user_id, count(*), sum(b.is_favorite), count(*) FILTER (WHERE b.collection_id IS NULL),
     count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM bookmark_tags l WHERE l.bookmark_id = b.id)),
     count(*) FILTER (WHERE b.type = 'link'), count(*) FILTER (WHERE b.type = 'article'), count(*) FILTER (WHERE b.type = 'video'),
     count(*) FILTER (WHERE b.type = 'image'), count(*) FILTER (WHERE b.type = 'document')
   FROM bookmarks b WHERE b.deleted_at IS NULL GROUP BY b.user_id`,
  `INSERT INTO domain_counts (user_id, domain, count)
   SELECT user_id, domain, count(*) FROM bookmarks WHERE deleted_at IS NULL GROUP BY user_id, domain`,
  `INSERT INTO url_key_counts (user_id, url_key, count)
   SELECT user_id, url_key, count(*) FROM bookmarks WHERE deleted_at IS NULL GROUP BY user_id, url_key`,
];
/** PostgreSQL takes at most 65,535 parameters a statement. */
const MAX_PARAMETERS = 60_000;
const MAX_ROWS_PER_INSERT = 1_000;

export interface CopyProgress {
  table: string;
  rows: number;
}

/**
 * Copies every row of a SQLite library into an empty PostgreSQL one (both migrated to the same
 * schema), in the caller's transaction: all of it or nothing. Answers the rows copied per table.
 */
export async function copyLibrary(from: Db, to: Sql, onTable: (progress: CopyProgress) => void = () => undefined): Promise<CopyProgress[]> {
  const copied: CopyProgress[] = [];
  for (const table of COUNTED_TABLES) await to.run(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
  for (const table of TABLES) {
    const columns = await commonColumns(from, to, table);
    const rowsPerInsert = Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMETERS / columns.length));
    const select = from.prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY rowid`).raw();
    let rows = 0;
    let batch: unknown[][] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await to.run(insertStatement(table, columns, batch.length), batch.flat());
      rows += batch.length;
      batch = [];
    };
    for (const row of select.iterate() as IterableIterator<unknown[]>) {
      batch.push(row);
      if (batch.length === rowsPerInsert) await flush();
    }
    await flush();
    if (columns.includes('seq')) await to.run(`SELECT setval(pg_get_serial_sequence('${table}', 'seq'), COALESCE(MAX(seq), 0) + 1, false) FROM ${table}`);
    const progress = { table, rows };
    copied.push(progress);
    onTable(progress);
  }
  for (const statement of RECOUNT) await to.run(statement);
  for (const table of COUNTED_TABLES) await to.run(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
  return copied;
}

/** The columns both databases have (the SQLite file may be of an older schema: it is migrated first, so none should lack one). */
async function commonColumns(from: Db, to: Sql, table: string): Promise<string[]> {
  const source = (from.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).filter(
    (name) => !KEPT_COUNT_COLUMNS.has(name),
  );
  const target = new Set(
    (await to.all<{ name: string }>('SELECT column_name AS name FROM information_schema.columns WHERE table_name = $1', [table])).map((r) => r.name),
  );
  const missing = source.filter((name) => !target.has(name));
  if (missing.length > 0) throw new Error(`PostgreSQL's ${table} has no column ${missing.join(', ')}: is it of an older Shelf version?`);
  return source;
}

function insertStatement(table: string, columns: readonly string[], rows: number): string {
  const values: string[] = [];
  for (let r = 0; r < rows; r++) {
    values.push(`(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
  }
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values.join(', ')}`;
}
