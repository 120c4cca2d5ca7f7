import { type BookmarkRow, toBookmark } from '../store/shared/bookmark-rows.ts';
import { tagKey } from '../store/shared/tag-names.ts';
import { type TagCursor, rulesChanged } from './cursor.ts';
import type { EvaluationDialect } from './dialect.ts';
import { EVALUATION_LIMITS } from './limits.ts';
import { type StrategyPage, emptyPage } from './page.ts';
import type { SqlPredicate } from './predicate.ts';
import { type Steps, rows } from './steps.ts';

const { membershipsPerPage, resultCap } = EVALUATION_LIMITS;

export interface ExactTagRequest {
  userId: string;
  /** The tag name of the folder's first `tag equals` condition. */
  tag: string;
  /** All of the folder's conditions, that tag's included. */
  predicate: SqlPredicate;
  rulesVersion: number;
  from: TagCursor | null;
}

const TAG_ID = 'SELECT id FROM tags WHERE user_id = ? AND name_key = ?';
const MEMBERSHIPS = 'SELECT seq FROM bookmark_tags WHERE tag_id = ? AND seq > ? ORDER BY seq LIMIT ?';

/**
 * Rule 1 and 2 of the spec: walks one tag's memberships in membership order,
 * a fixed number per request, and returns the active bookmarks among them that
 * match. A page may be empty while memberships remain; its cursor says so.
 */
export class ExactTagStrategy {
  constructor(private dialect: EvaluationDialect) {}

  *page({ userId, tag, predicate, rulesVersion, from }: ExactTagRequest): Steps<StrategyPage> {
    const tagId = (yield* rows<{ id: string }>(TAG_ID, [userId, tagKey(tag)]))[0]?.id ?? null;
    // The tag was renamed, merged or deleted under the cursor: its walk no longer means this folder.
    if (from !== null && from.tagId !== tagId) throw rulesChanged();
    if (tagId === null) return emptyPage();

    const after = from?.afterMembership ?? 0;
    const returnedBefore = from?.returned ?? 0;
    const seqs = (yield* rows<{ seq: number }>(MEMBERSHIPS, [tagId, after, membershipsPerPage + 1])).map((m) => m.seq);
    const last = seqs[Math.min(seqs.length, membershipsPerPage) - 1];
    if (last === undefined) return emptyPage();

    const room = resultCap - returnedBefore;
    const matches = yield* rows<BookmarkRow>(this.matchesSql(predicate), [
      ...predicate.withParams,
      tagId,
      after,
      last,
      userId,
      ...predicate.params,
      room + 1,
    ]);
    if (matches.length > room) return { bookmarks: matches.slice(0, room).map(toBookmark), next: null, truncated: true };

    const bookmarks = matches.map(toBookmark);
    const returned = returnedBefore + matches.length;
    if (seqs.length <= membershipsPerPage) return { bookmarks, next: null, truncated: false };
    if (returned >= resultCap) return { bookmarks, next: null, truncated: true };
    return { bookmarks, next: { kind: 'tag', rulesVersion, tagId, afterMembership: last, returned }, truncated: false };
  }

  /** The window's memberships as the outer loop, each bookmark read by its id whatever the planner's statistics say. */
  private matchesSql(predicate: SqlPredicate): string {
    const { bookmarkColumns, windowJoin, unindexed } = this.dialect;
    return `
      ${predicate.withSql}
      SELECT ${bookmarkColumns}
      FROM bookmark_tags m ${windowJoin} bookmarks b ON b.id = m.bookmark_id
      WHERE m.tag_id = ? AND m.seq > ? AND m.seq <= ? AND ${unindexed('b.user_id')} = ? AND b.deleted_at IS NULL AND (${predicate.sql})
      ORDER BY m.seq
      LIMIT ?`;
  }
}
