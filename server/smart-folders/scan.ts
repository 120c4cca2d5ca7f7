import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { type BookmarkRow, toBookmark } from '../store/shared/bookmark-rows.ts';
import type { ScanCursor } from './cursor.ts';
import type { EvaluationDialect } from './dialect.ts';
import { EVALUATION_LIMITS } from './limits.ts';
import type { StrategyPage } from './page.ts';
import type { EvaluationPlan, ScanIndex } from './plan.ts';
import type { SqlPredicate } from './predicate.ts';
import { type SqlValue, type Steps, rows } from './steps.ts';

const { pageSize, scanLimit, resultCap } = EVALUATION_LIMITS;

export interface ScanRequest {
  userId: string;
  plan: Extract<EvaluationPlan, { strategy: 'scan' }>;
  predicate: SqlPredicate;
  from: ScanCursor | null;
}

interface Hit {
  seq: number;
  created_at: number;
}

/** created_at, then seq: the newest-first order every bookmark index of 001-core.sql ends with. */
type Position = readonly [createdAt: number, seq: number];

// Each filter must imply its partial index's WHERE, so that the dialect can keep the scan on that index.
const INDEX_SQL: Record<ScanIndex['by'], { index: string; filter: string }> = {
  domain: { index: 'bookmarks_domain', filter: 'AND b.domain = ?' },
  type: { index: 'bookmarks_type', filter: 'AND b.type = ?' },
  favorite: { index: 'bookmarks_favorite', filter: 'AND b.is_favorite = 1' },
  newest: { index: 'bookmarks_newest', filter: '' },
};

/**
 * Rules 3 and 4 of the spec for every folder without an exact tag: walks active
 * bookmarks newest first along the narrowest index the rules allow, until the
 * page is full or the evaluation's scan or result limit is spent. The cursor is
 * a position, not a rule, so it survives rule changes.
 *
 * Only matches leave the database: the rows examined are counted on the index, which
 * costs a fraction of handing thousands of rows to JavaScript.
 */
export class ScanStrategy {
  constructor(private dialect: EvaluationDialect) {}

  *page({ userId, plan, predicate, from }: ScanRequest): Steps<StrategyPage> {
    const scannedBefore = from?.scanned ?? 0;
    const returnedBefore = from?.returned ?? 0;
    const budget = scanLimit - scannedBefore;
    const room = Math.min(pageSize, resultCap - returnedBefore);
    const { index } = plan;
    const range: SqlValue[] = [
      userId,
      ...(index.by === 'domain' ? [index.domain] : index.by === 'type' ? [index.type] : []),
      plan.createdAfter ?? Number.MIN_SAFE_INTEGER,
      ...upperBound(from, plan.createdBefore, this.dialect.topTime),
    ];

    // One more match than the page takes tells that the page is full and more remain.
    const hits = yield* rows<Hit>(this.hitsSql(index, predicate), [...predicate.withParams, ...predicate.params, ...range, budget, room + 1]);
    if (hits.length <= room) {
      // The whole window was examined: either the library ended or the scan limit did.
      const windowRows = yield* this.count(`SELECT count(*) AS n FROM (SELECT 1 ${this.rangeSql(index)} LIMIT ?) AS w`, [...range, budget + 1]);
      return { bookmarks: yield* this.bookmarks(hits), next: null, truncated: windowRows > budget };
    }

    const page = hits.slice(0, room);
    const stop = page.at(-1);
    const returned = returnedBefore + page.length;
    if (stop === undefined || returned >= resultCap) return { bookmarks: yield* this.bookmarks(page), next: null, truncated: true };
    const examined = yield* this.count(`SELECT count(*) AS n ${this.rangeSql(index)} AND (b.created_at, b.seq) >= (?, ?)`, [
      ...range,
      stop.created_at,
      stop.seq,
    ]);
    return {
      bookmarks: yield* this.bookmarks(page),
      next: { kind: 'scan', createdAt: stop.created_at, seq: stop.seq, scanned: scannedBefore + examined, returned },
      truncated: false,
    };
  }

  private *count(sql: string, params: SqlValue[]): Steps<number> {
    return (yield* rows<{ n: number }>(sql, params))[0]?.n ?? 0;
  }

  private *bookmarks(hits: Hit[]): Steps<Bookmark[]> {
    if (hits.length === 0) return [];
    const sql = `SELECT ${this.dialect.bookmarkColumns} FROM bookmarks b WHERE ${this.dialect.inJsonIntegers('b.seq')}
      ORDER BY b.created_at DESC, b.seq DESC`;
    return (yield* rows<BookmarkRow>(sql, [JSON.stringify(hits.map((h) => h.seq))])).map(toBookmark);
  }

  /** The rows a scan may examine, newest first from its position; parameters: user, index value, after, position. */
  private rangeSql(index: ScanIndex): string {
    const { index: name, filter } = INDEX_SQL[index.by];
    return `FROM bookmarks b ${this.dialect.scanIndex(name)}
      WHERE b.user_id = ? AND b.deleted_at IS NULL ${filter} AND b.created_at > ? AND (b.created_at, b.seq) < (?, ?)`;
  }

  // The window runs as a co-routine: the database stops reading it once the outer LIMIT is met.
  private hitsSql(index: ScanIndex, predicate: SqlPredicate): string {
    return `
      ${predicate.withSql}
      SELECT seq, created_at FROM (
        SELECT b.seq, b.created_at, (${predicate.sql}) AS hit ${this.rangeSql(index)}
        ORDER BY b.created_at DESC, b.seq DESC LIMIT ?
      ) AS w WHERE hit LIMIT ?`;
  }
}

function upperBound(from: ScanCursor | null, createdBefore: number | null, topTime: number): Position {
  const cursor: Position = from === null ? [topTime, Number.MAX_SAFE_INTEGER] : [from.createdAt, from.seq];
  if (createdBefore === null) return cursor;
  // created_at < B is the position (B, 0): seq is never below 1.
  const before: Position = [createdBefore, 0];
  return before[0] < cursor[0] || (before[0] === cursor[0] && before[1] < cursor[1]) ? before : cursor;
}
