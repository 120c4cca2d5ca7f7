import type { Sql } from '../../db/postgres/pg.ts';
import type { BookmarkRow } from '../shared/bookmark-rows.ts';
import { isShortQuery, SHORT_QUERY_SCAN, unsearchable } from '../shared/search-terms.ts';
import { BOOKMARK_COLUMNS } from './bookmark-rows.ts';

/**
 * Text as the search index holds it (migration 003-search-index, whose expressions must stay
 * the same as these): lowercase under the Unicode collation whatever the database's default,
 * and final sigma as sigma, so that "ΓΛΩΣΣ" finds "γλώσσα" as SQLite's FTS5 case folding does.
 */
const indexed = (expr: string): string => `translate(lower(${expr} COLLATE "und-x-icu"), 'ς', 'σ')`;

/** Case folding for short queries, as SQLite's (JavaScript's toLowerCase): Unicode lowercase. */
const lowered = (expr: string): string => `lower(${expr} COLLATE "und-x-icu")`;

const FIELDS = ['title', 'description', 'url'] as const;

/** `%`, `_` and `\` in the text are plain characters. */
const containing = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

export interface Statement {
  text: string;
  params: unknown[];
}

/**
 * Active bookmarks whose title, description or URL contains the text in any case, newest first:
 * from the pg_trgm index (three characters or more), else among the newest SHORT_QUERY_SCAN.
 */
export class PgBookmarkSearch {
  constructor(private db: Sql) {}

  async find(userId: string, text: string, limit: number): Promise<BookmarkRow[]> {
    if (unsearchable(text)) return [];
    const { text: sql, params } = this.statement(userId, text, limit);
    return this.db.all<BookmarkRow & Record<string, unknown>>(sql, params);
  }

  /** The statement `find` runs (tests EXPLAIN it). */
  statement(userId: string, text: string, limit: number): Statement {
    if (isShortQuery(text)) {
      // The window is read without the tag names, which only the matches need.
      const needle = lowered('$2::text');
      return {
        text: `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.seq IN (
                 SELECT w.seq FROM (
                   SELECT w.seq, w.title, w.description, w.url FROM bookmarks w
                   WHERE w.user_id = $1 AND w.deleted_at IS NULL
                   ORDER BY w.created_at DESC, w.seq DESC LIMIT ${SHORT_QUERY_SCAN}) w
                 WHERE ${FIELDS.map((f) => `strpos(${lowered(`w.${f}`)}, ${needle}) > 0`).join(' OR ')})
               ORDER BY b.created_at DESC, b.seq DESC LIMIT $3`,
        params: [userId, text, limit],
      };
    }
    // The planner chooses between the index's matches sorted (a rare word) and the user's newest
    // bookmarks walked until `limit` match (a common one), from the statistics of the index's expressions.
    const pattern = indexed('$2::text');
    return {
      text: `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b
             WHERE b.user_id = $1 AND b.deleted_at IS NULL
               AND (${FIELDS.map((f) => `${indexed(`b.${f}`)} LIKE ${pattern}`).join(' OR ')})
             ORDER BY b.created_at DESC, b.seq DESC LIMIT $3`,
      params: [userId, containing(text), limit],
    };
  }
}
