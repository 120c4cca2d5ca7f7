import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/database.ts';
import { ApiError } from '../../http/api-error.ts';
import { SubtreeRenamer } from './tag-rename.ts';
import type { RenameAnswer, RenameJob, RenameWorkerData } from './tag-rename-thread.ts';

/**
 * The thread that renames tags (tag-rename-thread.ts): a connection of its own to the server's
 * database, one rename at a time, each one transaction.
 */
const { dataDir } = workerData as RenameWorkerData;
const renamer = new SubtreeRenamer(openDatabase(dataDir));
const port = parentPort!;

port.on('message', ({ seq, userId, id, newName, now }: RenameJob) => {
  port.postMessage(answer(seq, () => renamer.rename(userId, id, newName, now)));
});

function answer(seq: number, rename: () => string[]): RenameAnswer {
  try {
    return { seq, ids: rename() };
  } catch (err) {
    if (err instanceof ApiError) return { seq, refusal: { code: err.code, message: err.message, headers: err.headers } };
    return { seq, failure: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
}
