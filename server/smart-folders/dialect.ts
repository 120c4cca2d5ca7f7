/**
 * What the evaluation's SQL says differently on SQLite and on PostgreSQL; the rest of its text,
 * and every decision about what to read, is common (predicate.ts, exact-tag.ts, scan.ts).
 * Predicates are written with TRUE and FALSE, which SQLite reads as 1 and 0.
 */
export interface EvaluationDialect {
  /** The columns of BookmarkRow from the bookmarks table aliased `b`. */
  bookmarkColumns: string;
  /** Whether one parameter occurs in the text expression, case-sensitively. */
  contains(haystack: string): string;
  /** Whether the integer column is one of those of a JSON array bound as one parameter, looked up by its index. */
  inJsonIntegers(column: string): string;
  /** Follows `FROM bookmarks b`: keeps a scan on the index it was planned for. */
  scanIndex(name: string): string;
  /** Joins a tag's membership window (`m`) to its bookmarks (`b`), the window as the outer loop. */
  windowJoin: string;
  /** A column compared as it is read, rather than used to look rows up. */
  unindexed(column: string): string;
  /** Ends a subquery that must run per row, as written, rather than become a join over its whole table. */
  perRow: string;
  /** Above every created_at a bookmark can hold: where a scan without a cursor starts. */
  topTime: number;
}
