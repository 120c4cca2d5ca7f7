import { openDatabase } from '../../db/database.ts';
import type { Store } from '../store.ts';
import { SqliteAccounts } from './accounts.ts';
import { SqliteBlocks } from './blocks.ts';
import { SqliteBookmarks } from './bookmarks.ts';
import { SqliteCollections } from './collections.ts';
import { SqliteIdempotency } from './idempotency.ts';
import { SqliteJobs } from './jobs.ts';
import { SqliteSmartFolders } from './smart-folders.ts';
import { SqliteTags } from './tags.ts';
import { SqliteUploads } from './uploads.ts';

export function openSqliteStore(dataDir: string): Store {
  const db = openDatabase(dataDir);
  // total_changes counts this connection's writes; data_version moves when another connection commits.
  const version = db.prepare<[], string>("SELECT data_version || '.' || total_changes() FROM pragma_data_version").pluck();
  return {
    accounts: new SqliteAccounts(db),
    bookmarks: new SqliteBookmarks(db),
    collections: new SqliteCollections(db),
    tags: new SqliteTags(db),
    idempotency: new SqliteIdempotency(db),
    jobs: new SqliteJobs(db),
    smartFolders: new SqliteSmartFolders(db),
    uploads: new SqliteUploads(db),
    blocks: new SqliteBlocks(db),
    version: () => version.get()!,
    close: () => db.close(),
  };
}
