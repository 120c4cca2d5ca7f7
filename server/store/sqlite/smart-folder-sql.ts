import type { EvaluationDialect } from '../../smart-folders/dialect.ts';
import { BOOKMARK_COLUMNS } from './bookmark-rows.ts';

/** The smart-folder evaluation's SQL as SQLite says it. */
export const SQLITE_EVALUATION: EvaluationDialect = {
  bookmarkColumns: BOOKMARK_COLUMNS,
  contains: (haystack) => `instr(${haystack}, ?) > 0`,
  inJsonIntegers: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  // Without statistics SQLite prefers bookmarks_newest and filters, which walks rows outside the index's slice.
  scanIndex: (name) => `INDEXED BY ${name}`,
  // CROSS JOIN keeps SQLite from reordering the join whatever its statistics say...
  windowJoin: 'CROSS JOIN',
  // ...and the unary + from reading b through a user_id index instead of its id.
  unindexed: (column) => `+${column}`,
  // SQLite runs a correlated subquery per row as it is.
  perRow: '',
  // A REAL above every stored time, including those beyond 2^53 that imports wrote before dates were checked.
  topTime: Infinity,
};
