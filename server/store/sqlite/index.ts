import { openDatabase } from '../../db/database.ts';
import type { Store } from '../store.ts';
import { SqliteAccounts } from './accounts.ts';
import { SqliteBookmarks } from './bookmarks.ts';
import { SqliteCollections } from './collections.ts';
import { SqliteIdempotency } from './idempotency.ts';
import { SqliteTags } from './tags.ts';

export function openSqliteStore(dataDir: string): Store {
  const db = openDatabase(dataDir);
  return {
    accounts: new SqliteAccounts(db),
    bookmarks: new SqliteBookmarks(db),
    collections: new SqliteCollections(db),
    tags: new SqliteTags(db),
    idempotency: new SqliteIdempotency(db),
    close: () => db.close(),
  };
}
