import { MAX_TAG_DEPTH, MAX_TAGS_PER_BOOKMARK, MAX_TAGS_PER_USER } from '../../lib/api/bookmarks.ts';
import type { RawDb } from './raw-db.ts';

/** Rows per INSERT: few statements, each well within either backend's limit on parameters. */
const ROWS_PER_INSERT = 500;

/** Inserts rows of equal width in multi-row statements (ancestors first stay first). */
async function insertRows(db: RawDb, head: string, row: string, rows: unknown[][]): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const batch = rows.slice(start, start + ROWS_PER_INSERT);
    await db.run(`${head} VALUES ${batch.map(() => row).join(', ')}`, ...batch.flat());
  }
}

/**
 * The costliest tags a user can have within the caps, for the latency test and the bench:
 * MAX_TAGS_PER_USER tags under one root `r`, MAX_TAG_DEPTH levels deep with long names,
 * and `bookmarks` bookmarks each carrying the same MAX_TAGS_PER_BOOKMARK of them, written
 * straight into the database (the API would take minutes). Answers the root's id, the ids
 * of the tags the bookmarks carry, and the bookmarks' ids.
 */
export async function seedTagsAtCaps(db: RawDb, userId: string, bookmarks: number): Promise<{ rootId: string; carried: string[]; bookmarkIds: string[] }> {
  const names = tagNames();
  const ids = new Map<string, string>();
  const tags = names.map((name) => {
    const id = `tag_${userId}_${ids.size}`;
    const parent = name.includes('/') ? ids.get(name.slice(0, name.lastIndexOf('/')))! : null;
    ids.set(name, id);
    return [id, userId, name, name.toLowerCase(), parent];
  });
  await insertRows(db, 'INSERT INTO tags (id, user_id, name, name_key, parent_id, created_at)', '(?, ?, ?, ?, ?, 0)', tags);
  const bookmarkIds = Array.from({ length: bookmarks }, (_, i) => `bm_${userId}_${i}`);
  await insertRows(
    db,
    'INSERT INTO bookmarks (id, user_id, url, url_key, title, domain, metadata_status, link_status, last_checked_at, created_at, updated_at)',
    "(?, ?, ?, ?, ?, 'tags.example', 'complete', 'unchecked', 0, ?, ?)",
    bookmarkIds.map((id, i) => {
      const url = `https://tags.example/${userId}/${i}`;
      return [id, userId, url, url, `Tagged ${i}`, 1_700_000_000_000 + i, 1_700_000_000_000 + i];
    }),
  );
  // Tag after tag, so that seeding is quick: a tag's links lie together.
  const carried = names.slice(-MAX_TAGS_PER_BOOKMARK);
  for (const name of carried) {
    await db.run('INSERT INTO bookmark_tags (bookmark_id, tag_id) SELECT id, ? FROM bookmarks WHERE user_id = ? ORDER BY seq', ids.get(name), userId);
  }
  return { rootId: ids.get('r')!, carried: carried.map((name) => ids.get(name)!), bookmarkIds };
}

/** MAX_TAGS_PER_USER names, every ancestor included, the deepest MAX_TAG_DEPTH levels and about 120 characters long. */
function tagNames(): string[] {
  const names = new Set<string>();
  const long = (word: string, i: number) => `${word}-${i}-${'x'.repeat(20)}`;
  for (let i = 0; names.size < MAX_TAGS_PER_USER; i++) {
    const levels = ['r', long('area', i % 20), long('topic', i % 200), long('subject', i % 1000), `item${i}`, 'detail', 'more', 'leaf'];
    for (let depth = 1; depth <= MAX_TAG_DEPTH && names.size < MAX_TAGS_PER_USER; depth++) names.add(levels.slice(0, depth).join('/'));
  }
  return [...names];
}
