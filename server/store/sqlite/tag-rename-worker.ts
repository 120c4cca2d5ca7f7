import { openDatabase } from '../../db/database.ts';
import { serveStoreJobs } from './store-thread.ts';
import { SubtreeRenamer } from './tag-rename.ts';
import type { RenameJob } from './tag-rename-thread.ts';

/**
 * The thread that renames tags (tag-rename-thread.ts): a connection of its own to the server's
 * database, one rename at a time, each one transaction.
 */
serveStoreJobs(
  (dataDir) => new SubtreeRenamer(openDatabase(dataDir)),
  (renamer, { userId, id, newName, now }: RenameJob) => renamer.rename(userId, id, newName, now),
);
