import { BookmarkType, type DuplicateBookmark, MAX_TAGS_PER_BOOKMARK } from '../../../lib/api/bookmarks.ts';
import { ApiError, conflict } from '../../http/api-error.ts';
import type { BookmarkStats, DuplicatesResult } from '../bookmarks.ts';
import { type BookmarkRow, type DuplicateRow, toDuplicateBookmark } from './bookmark-rows.ts';

export const MAX_DUPLICATE_GROUPS = 500;

/** PATCH fields stored as they come, by column. */
export const PLAIN_COLUMNS = {
  description: 'description',
  excerpt: 'excerpt',
  note: 'note',
  type: 'type',
  favicon: 'favicon',
  clickCount: 'click_count',
} as const;

/** A user's row of kept stats (bookmark_stats). */
export interface StatsRow extends Record<BookmarkType, number> {
  total: number;
  favorites: number;
  unsorted: number;
  no_tags: number;
}

/** The columns of StatsRow, for `SELECT ${STATS_COLUMNS} FROM bookmark_stats`. */
export const STATS_COLUMNS = `total, favorites, unsorted, no_tags, ${BookmarkType.options.join(', ')}`;

/** A user who never saved a bookmark has no row of kept stats. */
export function toStats(s: StatsRow | undefined): BookmarkStats {
  if (s === undefined) return { total: 0, favorites: 0, unsorted: 0, noTags: 0, typeCounts: { link: 0, article: 0, video: 0, image: 0, document: 0 } };
  return {
    total: s.total,
    favorites: s.favorites,
    unsorted: s.unsorted,
    noTags: s.no_tags,
    typeCounts: { link: s.link, article: s.article, video: s.video, image: s.image, document: s.document },
  };
}

/** Duplicate groups from their members' rows, read group after group in the answer's order. */
export function toDuplicates(rows: (DuplicateRow & { url_key: string })[]): DuplicatesResult {
  const groups = new Map<string, DuplicateBookmark[]>();
  for (const row of rows) {
    const group = groups.get(row.url_key) ?? [];
    group.push(toDuplicateBookmark(row));
    groups.set(row.url_key, group);
  }
  return { groups: [...groups].map(([normalizedUrl, bookmarks]) => ({ normalizedUrl, bookmarks })) };
}

const plural = (n: number, word: string): string => (n === 1 ? word : `${word}s`);

/** Bulk changes: every id must name one of the user's bookmarks (`found`: the ones that do). */
export function requireFound(ids: string[], found: { id: string }[]): void {
  const known = new Set(found.map((r) => r.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) throw new ApiError('NOT_FOUND', `${plural(missing.length, 'bookmark')} not found: ${missing.join(', ')}`);
}

/** Bulk changes other than trash apply to active bookmarks only. */
export function refuseTrashed(rows: { id: string; deleted_at: number | null }[]): void {
  const trashed = rows.filter((r) => r.deleted_at !== null).map((r) => r.id);
  if (trashed.length > 0) {
    throw conflict(`${plural(trashed.length, 'bookmark')} in the trash (restore first): ${trashed.join(', ')}`);
  }
}

/** A tag cannot be added to bookmarks that have no room for another (`full`: their ids). */
export function refuseFull(full: string[]): void {
  if (full.length > 0) {
    throw conflict(`${plural(full.length, 'bookmark')} already at ${MAX_TAGS_PER_BOOKMARK} tags: ${full.join(', ')}`);
  }
}

/** Changes to one bookmark apply to an active one only. */
export function refuseIfTrashed(row: BookmarkRow): void {
  if (row.deleted_at !== null) throw conflict(`bookmark ${row.id} is in the trash; restore it first`);
}

export const notOnBookmark = (tagId: string, id: string): ApiError => new ApiError('NOT_FOUND', `tag ${tagId} not found on bookmark ${id}`);

/** A bookmark's URL cannot change to one of the user's other active bookmarks'. */
export const urlTaken = (otherId: string): ApiError => conflict(`bookmark ${otherId} already has this URL`);
