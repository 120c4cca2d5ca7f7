import type { AccountsStore } from './accounts.ts';
import type { BookmarksStore } from './bookmarks.ts';
import type { CollectionsStore } from './collections.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { TagsStore } from './tags.ts';

/** All data access, one module per resource; the SQLite implementation is in ./sqlite. */
export interface Store {
  accounts: AccountsStore;
  bookmarks: BookmarksStore;
  collections: CollectionsStore;
  tags: TagsStore;
  idempotency: IdempotencyStore;
  close(): void;
}
