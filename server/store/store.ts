import type { Awaitable } from '../awaitable.ts';
import type { AccountsStore } from './accounts.ts';
import type { BlocksStore } from './blocks.ts';
import type { BookmarksStore } from './bookmarks.ts';
import type { CollectionsStore } from './collections.ts';
import type { FileBytes } from './files.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { JobsStore } from './jobs.ts';
import type { LinkChecksStore } from './link-checks.ts';
import type { SmartFoldersStore } from './smart-folders.ts';
import type { TagsStore } from './tags.ts';
import type { UploadsStore } from './uploads.ts';

/** All data access, one module per resource; implemented on SQLite (./sqlite) and on PostgreSQL (./postgres). */
export interface Store {
  accounts: AccountsStore;
  bookmarks: BookmarksStore;
  collections: CollectionsStore;
  tags: TagsStore;
  idempotency: IdempotencyStore;
  jobs: JobsStore;
  linkChecks: LinkChecksStore;
  smartFolders: SmartFoldersStore;
  uploads: UploadsStore;
  blocks: BlocksStore;
  /** The bytes of uploaded files (the uploads store keeps their records). */
  files: FileBytes;
  /** The files of export jobs, named by artifactName (the jobs store keeps their jobs). */
  exports: FileBytes;
  /**
   * An opaque token that changes whenever any data changes, whoever changed it
   * (this process, the admin command, another instance): what cached answers are checked against.
   */
  version(): Awaitable<string>;
  /**
   * An opaque token that changes whenever data in one user's cached answers changes (their
   * bookmarks, tags, collections, smart folders, files or account), whoever changed it; another
   * user's writes leave it as it was. Read after version(), it is never behind it.
   */
  userVersion(userId: string): Awaitable<string>;
  close(): Promise<void>;
}
