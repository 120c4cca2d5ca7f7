import { StoreThread } from './store-thread.ts';

export interface RenameJob {
  userId: string;
  id: string;
  newName: string;
  now: number;
}

/**
 * Runs tag renames (SubtreeRenamer, one transaction each) on a store thread (store-thread.ts).
 * Renaming the root of MAX_TAGS_PER_USER tags holds SQLite for some 40 ms of CPU, which cannot
 * be cut into slices without readers seeing a hierarchy half renamed; on the event loop it held
 * every other user's request that long. On the thread, the event loop goes on serving: reads see
 * the names as they were until the rename commits (WAL); a write from this process meanwhile
 * still waits for SQLite's lock (busy_timeout, holding the event loop), as it would behind
 * another instance.
 */
export class RenameThread {
  private thread: StoreThread<RenameJob, string[]>;

  constructor(dataDir: string) {
    this.thread = new StoreThread('tag-rename-worker', dataDir, 'tag rename');
  }

  /** Answers the ids of the renamed tags, the tag's first; rejects with the rename's ApiError. */
  rename(userId: string, id: string, newName: string, now: number): Promise<string[]> {
    return this.thread.run({ userId, id, newName, now });
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
