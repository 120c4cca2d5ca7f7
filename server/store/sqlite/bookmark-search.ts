import type Database from 'better-sqlite3';
import type { Db } from '../../db/database.ts';
import { BOOKMARK_COLUMNS, type BookmarkRow } from './bookmark-rows.ts';

/** The trigram index cannot answer a query shorter than one trigram. */
const TRIGRAM = 3;

/**
 * How many of the newest active bookmarks a query of one or two characters looks through: such
 * a query has no index to use, and this bound keeps it from holding the event loop over a large
 * library (docs/api-decisions.md, "Search").
 */
export const SHORT_QUERY_SCAN = 10_000;

type Params = Record<string, string | number>;

/** Case folding for short queries, close to the trigram tokenizer's (which folds every script). */
const fold = (s: string): string => s.toLowerCase();

/** Active bookmarks whose title, description or URL contains the text in any case, newest first. */
export class SqliteBookmarkSearch {
  private indexed: Database.Statement<[Params], BookmarkRow>;
  private short: Database.Statement<[Params], BookmarkRow>;

  constructor(db: Db) {
    db.function('shelf_contains_folded', { deterministic: true }, (title, description, url, needle) =>
      [title, description, url].some((field) => fold(String(field)).includes(String(needle))) ? 1 : 0,
    );
    this.indexed = db.prepare(
      `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b
       WHERE b.seq IN (SELECT rowid FROM bookmarks_search WHERE bookmarks_search MATCH @match)
         AND b.user_id = @userId AND b.deleted_at IS NULL
       ORDER BY b.created_at DESC, b.seq DESC LIMIT @limit`,
    );
    // The window is read without the tag names, which only the matches need.
    this.short = db.prepare(
      `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.seq IN (
         SELECT w.seq FROM (
           SELECT w.seq, w.title, w.description, w.url FROM bookmarks w INDEXED BY bookmarks_newest
           WHERE w.user_id = @userId AND w.deleted_at IS NULL
           ORDER BY w.created_at DESC, w.seq DESC LIMIT ${SHORT_QUERY_SCAN}) w
         WHERE shelf_contains_folded(w.title, w.description, w.url, @needle))
       ORDER BY b.created_at DESC, b.seq DESC LIMIT @limit`,
    );
  }

  find(userId: string, text: string, limit: number): BookmarkRow[] {
    if ([...text].length < TRIGRAM) return this.short.all({ userId, needle: fold(text), limit });
    // One FTS5 string: the trigram tokenizer turns it into consecutive trigrams, i.e. a substring match.
    return this.indexed.all({ userId, match: `"${text.replace(/"/g, '""')}"`, limit });
  }
}
