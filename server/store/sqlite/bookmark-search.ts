import type Database from 'better-sqlite3';
import type { Db } from '../../db/database.ts';
import type { BookmarkRow } from '../shared/bookmark-rows.ts';
import { isShortQuery, SHORT_QUERY_SCAN, unsearchable } from '../shared/search-terms.ts';
import { BOOKMARK_COLUMNS } from './bookmark-rows.ts';
import { trigramFold, trigramFoldBytes } from './trigram-fold.ts';

/** Above this many matching rows (all users'), a page is first looked for by walking the newest bookmarks. */
const MANY_MATCHES = 5_000;

/**
 * How many of the user's newest bookmarks a word with many matches is tested in, row by row,
 * before its matches are read from the index after all: about 5 ms at a million bookmarks, what
 * reading some 30,000 matches costs. A word in one bookmark of ten fills a page of 50 within 500.
 */
export const SEARCH_WALK_ROWS = 5_000;

type Params = Record<string, string | number>;

const FIELDS = 'w.title, w.description, w.url';

/** Case folding for short queries, close to the trigram tokenizer's (which folds every script). */
const lowered = (s: string): string => s.toLowerCase();

/** Active bookmarks whose title, description or URL contains the text in any case, newest first. */
export class SqliteBookmarkSearch {
  private short: Database.Statement<[Params], BookmarkRow>;
  private walk: Database.Statement<[Params], BookmarkRow>;
  private sorted: Database.Statement<[Params], BookmarkRow>;
  private matched: Database.Statement<[Params], BookmarkRow>;
  private count: Database.Statement<[Params], number>;

  constructor(db: Db) {
    db.function('shelf_contains_lowered', { deterministic: true }, (title, description, url, needle) =>
      [title, description, url].some((field) => lowered(String(field)).includes(String(needle))) ? 1 : 0,
    );
    // Whether a field holds the folded needle, folded as FTS5's trigram tokenizer folds: the same
    // test as the index's, row by row. Null for a text holding U+FFFD, which may stand for a lone
    // surrogate that FTS5 read from the bytes as one U+FFFD; the same fields as bytes then settle it.
    db.function('shelf_trigram_contains', { deterministic: true }, (title, description, url, needle) => {
      const fields = [title, description, url];
      if (fields.every((f) => typeof f === 'string')) {
        if (fields.some((f) => f.includes('\ufffd'))) return null;
        return fields.some((f) => trigramFold(f).includes(String(needle))) ? 1 : 0;
      }
      return fields.some((f) => trigramFoldBytes(f as Uint8Array).includes(String(needle))) ? 1 : 0;
    });
    // The user's newest @budget bookmarks, tested one by one until @limit match: the window runs as
    // a co-routine, read newest first, so that the walk stops with the page. Only the page's rows
    // are then read whole.
    const newestPassing = (test: string) =>
      db.prepare<[Params], BookmarkRow>(
        `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.seq IN (
           SELECT w.seq FROM (
             SELECT w.seq, ${FIELDS} FROM bookmarks w INDEXED BY bookmarks_newest
             WHERE w.user_id = @userId AND w.deleted_at IS NULL
             ORDER BY w.created_at DESC, w.seq DESC LIMIT @budget) w
           WHERE ${test} LIMIT @limit)
         ORDER BY b.created_at DESC, b.seq DESC`,
      );
    this.short = newestPassing(`shelf_contains_lowered(${FIELDS}, @needle)`);
    this.walk = newestPassing(
      `coalesce(shelf_trigram_contains(${FIELDS}, @needle),
         shelf_trigram_contains(CAST(w.title AS BLOB), CAST(w.description AS BLOB), CAST(w.url AS BLOB), @needle))`,
    );
    const matches = 'SELECT rowid FROM bookmarks_search WHERE bookmarks_search MATCH @match';
    const newestOf = (selection: string) =>
      db.prepare<[Params], BookmarkRow>(
        `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.seq IN (${selection} ORDER BY m.created_at DESC, m.seq DESC LIMIT @limit)
         ORDER BY b.created_at DESC, b.seq DESC`,
      );
    // Few matches are read and sorted; many are read into a set that the user's newest bookmarks,
    // walked on the index alone, are checked against (each match sorted would be a read of its row).
    this.sorted = newestOf(`SELECT m.seq FROM bookmarks m WHERE m.seq IN (${matches}) AND m.user_id = @userId AND m.deleted_at IS NULL`);
    this.matched = newestOf(
      `SELECT m.seq FROM bookmarks m INDEXED BY bookmarks_newest WHERE m.user_id = @userId AND m.deleted_at IS NULL AND m.seq IN (${matches})`,
    );
    this.count = db.prepare<[Params], number>(`SELECT COUNT(*) FROM (${matches} LIMIT ${MANY_MATCHES + 1})`).pluck();
  }

  /**
   * Plans for one answer. One or two characters have no trigram to look up: the newest
   * SHORT_QUERY_SCAN bookmarks are walked. A word with few matches (counted up to MANY_MATCHES)
   * is looked up and sorted. One with many is first tested in at most SEARCH_WALK_ROWS of the
   * newest bookmarks, which stops with the page: at a million bookmarks a word in one of ten
   * takes 2 ms where reading its 100,000 matches took 17. A page that walk leaves unfilled
   * is answered from the matches after all.
   */
  find(userId: string, text: string, limit: number): BookmarkRow[] {
    if (unsearchable(text)) return [];
    if (isShortQuery(text)) return this.short.all({ userId, needle: lowered(text), budget: SHORT_QUERY_SCAN, limit });
    // One FTS5 string: the trigram tokenizer turns it into consecutive trigrams, i.e. a substring match.
    const match = `"${text.replace(/"/g, '""')}"`;
    if (this.count.get({ match })! > MANY_MATCHES) {
      const walked = this.walk.all({ userId, needle: trigramFold(text), budget: SEARCH_WALK_ROWS, limit });
      if (walked.length === limit) return walked;
      return this.matched.all({ userId, match, limit });
    }
    return this.sorted.all({ userId, match, limit });
  }
}
