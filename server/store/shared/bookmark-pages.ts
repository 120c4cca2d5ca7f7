import type { BookmarkPage, ListBookmarksQuery } from '../../../lib/api/bookmarks.ts';
import { type CursorKey, type CursorOrder, encodeCursor } from '../../bookmarks/cursor.ts';
import { type BookmarkRow, toBookmark } from './bookmark-rows.ts';

/** The cursor of a row in each keyset order of bookmark pages. */
export const ORDER_KEYS: Record<CursorOrder, (r: BookmarkRow) => Omit<CursorKey, 'order'>> = {
  newest: (r) => ({ seq: r.seq, time: r.created_at, text: '' }),
  oldest: (r) => ({ seq: r.seq, time: r.created_at, text: '' }),
  title: (r) => ({ seq: r.seq, time: 0, text: r.title }),
  domain: (r) => ({ seq: r.seq, time: r.created_at, text: r.domain }),
  trash: (r) => ({ seq: r.seq, time: r.deleted_at ?? 0, text: '' }),
};

/** The order of the spec's favourites window when the query asks for it (favourites by title or domain, no other filter), else null. */
export function favoritesWindowOrder({ sortBy, isFavorite, collectionId, domain, type, url, linkStatus }: ListBookmarksQuery): 'title' | 'domain' | null {
  const windowed = (sortBy === 'title' || sortBy === 'domain') && isFavorite === true;
  const filtered = collectionId !== undefined || domain !== undefined || type !== undefined || url !== undefined || linkStatus !== undefined;
  return windowed && !filtered ? sortBy : null;
}

/** A page from the rows read for it: up to limit + 1 in `order`, the extra one saying that more follow. */
export function toPage(order: CursorOrder, rows: BookmarkRow[], limit: number): BookmarkPage {
  const hasMore = rows.length > limit;
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    data: shown.map(toBookmark),
    cursor: hasMore && last !== undefined ? encodeCursor({ order, ...ORDER_KEYS[order](last) }) : null,
    hasMore,
    truncated: false,
  };
}

/**
 * The spec's favourites window from the `limit` + 1 most recently saved favourites in the
 * list's order: the oldest of them goes when there are more than `limit`.
 */
export function toFavoritesWindow(rows: BookmarkRow[], limit: number): BookmarkPage {
  const truncated = rows.length > limit;
  if (truncated) {
    const oldest = rows.reduce((a, b) => (b.created_at < a.created_at || (b.created_at === a.created_at && b.seq < a.seq) ? b : a));
    rows.splice(rows.indexOf(oldest), 1);
  }
  return { data: rows.map(toBookmark), cursor: null, hasMore: false, truncated };
}
