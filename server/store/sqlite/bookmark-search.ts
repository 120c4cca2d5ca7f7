import type Database from 'better-sqlite3';
import type { Db } from '../../db/database.ts';
import type { BookmarkRow } from '../shared/bookmark-rows.ts';
import { isShortQuery, SHORT_QUERY_SCAN, unsearchable } from '../shared/search-terms.ts';
import { BOOKMARK_COLUMNS } from './bookmark-rows.ts';

/** Above this many matching rows (all users'), walking the newest first beats sorting the matches. */
const MANY_MATCHES = 5_000;

type Params = Record<string, string | number>;

/** Case folding for short queries, close to the trigram tokenizer's (which folds every script). */
const fold = (s: string): string => s.toLowerCase();

/** Active bookmarks whose title, description or URL contains the text in any case, newest first. */
export class SqliteBookmarkSearch {
  private few: Database.Statement<[Params], BookmarkRow>;
  private many: Database.Statement<[Params], BookmarkRow>;
  private count: Database.Statement<[Params], number>;
  private short: Database.Statement<[Params], BookmarkRow>;

  constructor(db: Db) {
    db.function('shelf_contains_folded', { deterministic: true }, (title, description, url, needle) =>
      [title, description, url].some((field) => fold(String(field)).includes(String(needle))) ? 1 : 0,
    );
    // Two plans for the same answer, chosen by how many rows match (counted up to MANY_MATCHES):
    // few matches are looked up and sorted; many are met by walking the newest first, each
    // checked against the matches, which stops after `limit` of them. At a million bookmarks
    // a word in one of ten took 100 ms sorted and 14 ms walked; a word in ten took 45 ms walked.
    const matches = 'SELECT rowid FROM bookmarks_search WHERE bookmarks_search MATCH @match';
    const newestOf = (selection: string) =>
      db.prepare<[Params], BookmarkRow>(
        `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.seq IN (${selection} ORDER BY m.created_at DESC, m.seq DESC LIMIT @limit)
         ORDER BY b.created_at DESC, b.seq DESC`,
      );
    this.few = newestOf(`SELECT m.seq FROM bookmarks m WHERE m.seq IN (${matches}) AND m.user_id = @userId AND m.deleted_at IS NULL`);
    this.many = newestOf(
      `SELECT m.seq FROM bookmarks m INDEXED BY bookmarks_newest WHERE m.user_id = @userId AND m.deleted_at IS NULL AND m.seq IN (${matches})`,
    );
    this.count = db.prepare<[Params], number>(`SELECT COUNT(*) FROM (${matches} LIMIT ${MANY_MATCHES + 1})`).pluck();
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
    if (unsearchable(text)) return [];
    if (isShortQuery(text)) return this.short.all({ userId, needle: fold(text), limit });
    // One FTS5 string: the trigram tokenizer turns it into consecutive trigrams, i.e. a substring match.
    const match = `"${text.replace(/"/g, '""')}"`;
    const plan = this.count.get({ match })! > MANY_MATCHES ? this.many : this.few;
    return plan.all({ userId, match, limit });
  }
}
