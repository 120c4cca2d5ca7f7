import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { CursorState } from './cursor.ts';

/** What a strategy answers for one request: the evaluation page with its cursor still unsigned. */
export interface StrategyPage {
  bookmarks: Bookmark[];
  next: CursorState | null;
  truncated: boolean;
}

export const emptyPage = (): StrategyPage => ({ bookmarks: [], next: null, truncated: false });
