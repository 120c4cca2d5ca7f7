import type { Condition, Rules } from '../../lib/api/smart-folders.ts';
import { tagKey } from '../store/shared/tag-names.ts';
import type { EvaluationDialect } from './dialect.ts';
import type { SqlValue } from './steps.ts';

/**
 * A boolean SQL expression over the bookmark row aliased `b`, with its
 * parameters in text order, and the WITH clause it reads (to open the
 * statement, before its own parameters).
 */
export interface SqlPredicate {
  withSql: string;
  withParams: SqlValue[];
  sql: string;
  params: SqlValue[];
}

type TagCondition = Extract<Condition, { field: 'tag' }>;
type ColumnCondition = Exclude<Condition, TagCondition>;
interface Sql {
  sql: string;
  params: SqlValue[];
}

/**
 * The folder's rules as one SQL expression, so that every bookmark is tested
 * inside the query that reads it (no per-bookmark statements).
 *
 * Cost drives the shape. Tag conditions are resolved once per statement into
 * `named_tags` (tag id → bit mask of the conditions naming it; SQLite indexes
 * the materialised table itself), so testing a bookmark is one walk of its
 * memberships with a seek each, however many tag conditions there are. A list
 * of ids bound as parameters would not do: SQLite rebuilds such a list for
 * every row of a correlated subquery. And the walk only runs when the cheap
 * column tests have not decided the answer (CASE is lazy).
 */
export function rulesPredicate(rules: Rules, userId: string, dialect: EvaluationDialect): SqlPredicate {
  const all = rules.match === 'all';
  const tags = rules.conditions.filter((c): c is TagCondition => c.field === 'tag');
  const columns = rules.conditions.filter((c): c is ColumnCondition => c.field !== 'tag').map((c) => columnTest(c, dialect));
  const cheap = join(columns, all ? ' AND ' : ' OR ');
  // No conditions restrict nothing: the folder shows the library (within the evaluation limits).
  if (tags.length === 0) return { withSql: '', withParams: [], ...(columns.length === 0 ? { sql: 'TRUE', params: [] } : cheap) };

  const named = namedTags(tags, userId, dialect);
  const tagged = all && tags.length > 1 ? everyTag(tags.length) : someTag(dialect);
  const test: Sql =
    columns.length === 0
      ? tagged
      : {
          sql: all ? `CASE WHEN ${cheap.sql} THEN ${tagged.sql} ELSE FALSE END` : `CASE WHEN ${cheap.sql} THEN TRUE ELSE ${tagged.sql} END`,
          params: [...cheap.params, ...tagged.params],
        };
  return { withSql: `WITH named_tags (tag_id, mask) AS MATERIALIZED (${named.sql})`, withParams: named.params, ...test };
}

/** The user's tags that some tag condition names; bit i of mask: condition i names it. */
function namedTags(tags: TagCondition[], userId: string, dialect: EvaluationDialect): Sql {
  const bits = tags.map((c, i) => ({
    sql: `(CASE WHEN ${c.operator === 'equals' ? 'name_key = ?' : dialect.contains('name_key')} THEN ${1 << i} ELSE 0 END)`,
    params: [tagKey(c.value)],
  }));
  const mask = join(bits, ' | ');
  return {
    sql: `SELECT tag_id, mask FROM (SELECT id AS tag_id, ${mask.sql} AS mask FROM tags WHERE user_id = ?) AS t WHERE mask <> 0`,
    params: [...mask.params, userId],
  };
}

const MEMBERSHIPS = 'FROM bookmark_tags bt JOIN named_tags s ON s.tag_id = bt.tag_id WHERE bt.bookmark_id = b.id';

/** Some tag of the bookmark is named by some tag condition. */
const someTag = (dialect: EvaluationDialect): Sql => ({ sql: `EXISTS (SELECT 1 ${MEMBERSHIPS} ${dialect.perRow})`, params: [] });

/**
 * Each of the k tag conditions names some tag of the bookmark: max(mask & bit)
 * is the bit when some tag carries it, so the sum over the bits is the full mask
 * exactly when every condition holds.
 */
function everyTag(k: number): Sql {
  const bits = Array.from({ length: k }, (_, i) => 1 << i);
  return {
    sql: `coalesce((SELECT ${bits.map((bit) => `max(s.mask & ${bit})`).join(' + ')} ${MEMBERSHIPS}), 0) = ${(1 << k) - 1}`,
    params: [],
  };
}

function join(parts: Sql[], operator: string): Sql {
  return { sql: parts.map((p) => `(${p.sql})`).join(operator), params: parts.flatMap((p) => p.params) };
}

function columnTest(c: ColumnCondition, dialect: EvaluationDialect): Sql {
  switch (c.field) {
    case 'domain':
      return { sql: c.operator === 'equals' ? 'b.domain = ?' : dialect.contains('b.domain'), params: [c.value] };
    case 'type':
      return { sql: 'b.type = ?', params: [c.value] };
    case 'isFavorite':
      return { sql: 'b.is_favorite = ?', params: [c.value === 'true' ? 1 : 0] };
    case 'createdAfter':
      return { sql: 'b.created_at > ?', params: [Number(c.value)] };
    case 'createdBefore':
      return { sql: 'b.created_at < ?', params: [Number(c.value)] };
    case 'clickCount':
      return { sql: c.operator === 'gte' ? 'b.click_count >= ?' : 'b.click_count <= ?', params: [Number(c.value)] };
  }
}
