import { type BookmarkRow, toBookmark } from '../store/shared/bookmark-rows.ts';
import { tagKey } from '../store/shared/tag-names.ts';
import { BOOKMARK_COLUMNS } from '../store/sqlite/bookmark-rows.ts';
import { type TagCursor, rulesChanged } from './cursor.ts';
import { EVALUATION_LIMITS } from './limits.ts';
import { type StrategyPage, emptyPage } from './page.ts';
import type { SqlPredicate } from './predicate.ts';
import type { Statement, StatementCache } from './statements.ts';

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

/**
 * Rule 1 and 2 of the spec: walks one tag's memberships in membership order,
 * a fixed number per request, and returns the active bookmarks among them that
 * match. A page may be empty while memberships remain; its cursor says so.
 */
export class ExactTagStrategy {
  private tagId: Statement<{ id: string }>;
  private memberships: Statement<{ seq: number }>;

  constructor(private statements: StatementCache) {
    this.tagId = statements.get('SELECT id FROM tags WHERE user_id = ? AND name_key = ?');
    this.memberships = statements.get('SELECT seq FROM bookmark_tags WHERE tag_id = ? AND seq > ? ORDER BY seq LIMIT ?');
  }

  page({ userId, tag, predicate, rulesVersion, from }: ExactTagRequest): StrategyPage {
    const tagId = this.tagId.get(userId, tagKey(tag))?.id ?? null;
    // The tag was renamed, merged or deleted under the cursor: its walk no longer means this folder.
    if (from !== null && from.tagId !== tagId) throw rulesChanged();
    if (tagId === null) return emptyPage();

    const after = from?.afterMembership ?? 0;
    const returnedBefore = from?.returned ?? 0;
    const seqs = this.memberships.all(tagId, after, membershipsPerPage + 1).map((m) => m.seq);
    const last = seqs[Math.min(seqs.length, membershipsPerPage) - 1];
    if (last === undefined) return emptyPage();

    const room = resultCap - returnedBefore;
    const rows = this.statements
      .get<BookmarkRow>(matchesSql(predicate))
      .all(...predicate.withParams, tagId, after, last, userId, ...predicate.params, room + 1);
    if (rows.length > room) return { bookmarks: rows.slice(0, room).map(toBookmark), next: null, truncated: true };

    const bookmarks = rows.map(toBookmark);
    const returned = returnedBefore + rows.length;
    if (seqs.length <= membershipsPerPage) return { bookmarks, next: null, truncated: false };
    if (returned >= resultCap) return { bookmarks, next: null, truncated: true };
    return { bookmarks, next: { kind: 'tag', rulesVersion, tagId, afterMembership: last, returned }, truncated: false };
  }
}

// CROSS JOIN keeps the membership window as the outer loop and the unary + keeps SQLite from
// reading b through a user_id index instead of its id: both whatever the planner's statistics say.
const matchesSql = (predicate: SqlPredicate): string => `
  ${predicate.withSql}
  SELECT ${BOOKMARK_COLUMNS}
  FROM bookmark_tags m CROSS JOIN bookmarks b ON b.id = m.bookmark_id
  WHERE m.tag_id = ? AND m.seq > ? AND m.seq <= ? AND +b.user_id = ? AND b.deleted_at IS NULL AND (${predicate.sql})
  ORDER BY m.seq
  LIMIT ?`;
