import { join } from 'node:path';
import { openDatabase } from '../../db/database.ts';
import { isArtifactName } from '../../jobs/artifacts.ts';
import { DiskFileBytes, isFileId } from '../../storage/disk.ts';
import type { Store } from '../store.ts';
import { SqliteAccounts } from './accounts.ts';
import { SqliteBlocks } from './blocks.ts';
import { SqliteBookmarks } from './bookmarks.ts';
import { SqliteCollections } from './collections.ts';
import { SqliteIdempotency } from './idempotency.ts';
import { SqliteJobs } from './jobs.ts';
import { SqliteLinkChecks } from './link-checks.ts';
import { SqliteSmartFolders } from './smart-folders.ts';
import { SqliteTags } from './tags.ts';
import { SqliteUploads } from './uploads.ts';
import { trackVersion } from './version.ts';

export function openSqliteStore(dataDir: string): Store {
  const db = openDatabase(dataDir);
  const version = trackVersion(db); // before the stores prepare their statements
  const tags = new SqliteTags(db);
  const collections = new SqliteCollections(db);
  const userVersion = db.prepare<[string], number>('SELECT version FROM data_versions WHERE user_id = ?').pluck();
  return {
    accounts: new SqliteAccounts(db),
    bookmarks: new SqliteBookmarks(db),
    collections,
    tags,
    idempotency: new SqliteIdempotency(db),
    jobs: new SqliteJobs(db),
    linkChecks: new SqliteLinkChecks(db),
    smartFolders: new SqliteSmartFolders(db),
    uploads: new SqliteUploads(db),
    blocks: new SqliteBlocks(db, version),
    files: new DiskFileBytes(join(dataDir, 'files'), isFileId),
    exports: new DiskFileBytes(join(dataDir, 'exports'), isArtifactName),
    version,
    userVersion: (userId) => String(userVersion.get(userId) ?? 0),
    close: async () => {
      await Promise.all([tags.close(), collections.close()]);
      db.close();
    },
  };
}
