import type { EvaluationDialect } from '../../smart-folders/dialect.ts';
import { BOOKMARK_COLUMNS } from './bookmark-rows.ts';

/** The smart-folder evaluation's SQL as PostgreSQL says it. */
export const POSTGRES_EVALUATION: EvaluationDialect = {
  bookmarkColumns: BOOKMARK_COLUMNS,
  contains: (haystack) => `strpos(${haystack}, ?) > 0`,
  // An array the index is searched with (an IN subquery may be hashed against a scan of the table).
  inJsonIntegers: (column) => `${column} = ANY (ARRAY(SELECT value::bigint FROM json_array_elements_text(?::json)))`,
  // The planner takes the partial index whose WHERE the scan's filter implies: its statistics are kept.
  scanIndex: () => '',
  windowJoin: 'JOIN',
  // An expression no index covers: without it a planner short of statistics reads b through a user_id
  // index once per membership instead of by its id.
  unindexed: (column) => `(${column} || '')`,
  // The planner keeps an EXISTS with an OFFSET as a subquery: pulled up, it is a join over every membership of every user.
  perRow: 'OFFSET 0',
  // The largest double below 2^63: a parameter compared with a BIGINT must be one.
  topTime: 2 ** 63 - 1024,
};

const MAX_CACHED = 256;
const numberedCache = new Map<string, string>();

/** `?` placeholders as PostgreSQL's `$1`, `$2`, …, in text order: the evaluation's SQL holds no other question mark. */
export function numbered(sql: string): string {
  let text = numberedCache.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    // Shapes are few in practice; dropping the oldest keeps a pathological mix bounded.
    if (numberedCache.size >= MAX_CACHED) numberedCache.delete(numberedCache.keys().next().value!);
    numberedCache.set(sql, text);
  }
  return text;
}
