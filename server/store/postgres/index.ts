import { openPostgres } from '../../db/postgres/connect.ts';
import type { Store } from '../store.ts';
import { PgAccounts } from './accounts.ts';
import { PgBlocks } from './blocks.ts';
import { PgBookmarks } from './bookmarks.ts';
import { PgCollections } from './collections.ts';
import { PgFileBytes } from './files.ts';
import { PgIdempotency } from './idempotency.ts';
import { PgJobs } from './jobs.ts';
import { PgLinkChecks } from './link-checks.ts';
import { PgSmartFolders } from './smart-folders.ts';
import { PgTags } from './tags.ts';
import { PgUploads } from './uploads.ts';

export async function openPostgresStore(url: string): Promise<Store> {
  const db = await openPostgres(url);
  return {
    accounts: new PgAccounts(db),
    bookmarks: new PgBookmarks(db),
    collections: new PgCollections(db),
    tags: new PgTags(db),
    idempotency: new PgIdempotency(db),
    jobs: new PgJobs(db),
    linkChecks: new PgLinkChecks(db),
    smartFolders: new PgSmartFolders(db),
    uploads: new PgUploads(db),
    blocks: new PgBlocks(db),
    files: new PgFileBytes(db, 'uploads'),
    exports: new PgFileBytes(db, 'exports'),
    // The snapshot (xmin:xmax:in-progress ids) moves whenever a transaction that wrote commits,
    // on any connection of any instance: read per request, it is never behind a committed write.
    version: async () => (await db.get<{ v: string }>('SELECT pg_current_snapshot()::text AS v'))!.v,
    // The id of the user's last writing transaction (007-data-versions.sql); none yet is 0.
    userVersion: async (userId) =>
      (await db.get<{ v: string }>('SELECT version::text AS v FROM data_versions WHERE user_id = $1', [userId]))?.v ?? '0',
    close: () => db.close(),
  };
}
