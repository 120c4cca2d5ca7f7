// PLACEHOLDER: replaced by the bookmarks module.
import type { Db } from '../../db/database.ts';
import type { BookmarksStore } from '../bookmarks.ts';

export class SqliteBookmarks implements BookmarksStore {
  readonly kind = 'bookmarks';
  constructor(readonly db: Db) {}
}
