import { openDatabase } from '../../db/database.ts';
import { encodeList } from '../shared/collection-rows.ts';
import { type ListJob, SqliteCollections } from './collections.ts';
import { serveStoreJobs } from './store-thread.ts';

/**
 * The thread that builds large collection lists (SqliteCollections.listSerialized): a connection
 * of its own to the server's database; the serialized list moves to the server's thread uncopied.
 */
serveStoreJobs(
  (dataDir) => new SqliteCollections(openDatabase(dataDir)),
  (collections, { userId }: ListJob) => encodeList(collections.activeList(userId)),
  (bytes) => [bytes.buffer],
);
