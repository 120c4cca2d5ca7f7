import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '../../../lib/api/errors.ts';
import { ApiError } from '../../http/api-error.ts';

export interface RenameWorkerData {
  dataDir: string;
}

export interface RenameJob {
  seq: number;
  userId: string;
  id: string;
  newName: string;
  now: number;
}

/** The ids renamed, the ApiError that refused the rename, or what else went wrong (a stack). */
export type RenameAnswer =
  | { seq: number; ids: string[] }
  | { seq: number; refusal: { code: ErrorCode; message: string; headers: Record<string, string> } }
  | { seq: number; failure: string };

type Pending = { resolve: (ids: string[]) => void; reject: (err: Error) => void };

/**
 * Runs tag renames (SubtreeRenamer, one transaction each) on a worker thread with its own
 * connection to the database. Renaming the root of MAX_TAGS_PER_USER tags holds SQLite for
 * some 40 ms of CPU, which cannot be cut into slices without readers seeing a hierarchy half
 * renamed; on the event loop it held every other user's request that long. On the thread,
 * the event loop goes on serving: reads see the names as they were until the rename commits
 * (WAL); a write from this process meanwhile still waits for SQLite's lock (busy_timeout, holding
 * the event loop), as it would behind another instance. The thread starts with the first rename
 * and is kept.
 */
export class RenameThread {
  private thread: Thread | null = null;
  private seq = 0;

  constructor(private dataDir: string) {}

  /** Answers the ids of the renamed tags, the tag's first; rejects with the rename's ApiError. */
  rename(userId: string, id: string, newName: string, now: number): Promise<string[]> {
    const job: RenameJob = { seq: ++this.seq, userId, id, newName, now };
    return new Promise((resolve, reject) => {
      const { worker, pending } = this.started();
      pending.set(job.seq, { resolve, reject });
      worker.ref();
      worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    await thread?.worker.terminate();
  }

  private started(): Thread {
    if (this.thread !== null) return this.thread;
    const thread: Thread = { worker: startWorker({ dataDir: this.dataDir }), pending: new Map() };
    const { worker, pending } = thread;
    worker.on('message', (answer: RenameAnswer) => {
      settle(pending, answer);
      // Idle, the thread is no reason for the process to stay up.
      if (pending.size === 0) worker.unref();
    });
    // Its renames fail with it (one not yet committed leaves nothing); the next rename starts another thread.
    const lost = (err: Error) => {
      if (this.thread === thread) this.thread = null;
      for (const { reject } of pending.values()) reject(err);
      pending.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the tag rename thread stopped (exit code ${code})`)));
    this.thread = thread;
    return thread;
  }
}

type Thread = { worker: Worker; pending: Map<number, Pending> };

function settle(pending: Map<number, Pending>, answer: RenameAnswer): void {
  const waiting = pending.get(answer.seq);
  if (waiting === undefined) return;
  pending.delete(answer.seq);
  if ('ids' in answer) waiting.resolve(answer.ids);
  else if ('refusal' in answer) waiting.reject(new ApiError(answer.refusal.code, answer.refusal.message, answer.refusal.headers));
  else waiting.reject(new Error(`tag rename failed on its thread: ${answer.failure}`));
}

/**
 * The worker module beside this one: JavaScript in the bundle (npm run build:server puts it beside
 * main.js), TypeScript when the server runs from source, where the thread does not inherit the
 * loader the server runs under (tsx, or vitest's) and registers tsx itself first.
 */
function startWorker(workerData: RenameWorkerData): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./tag-rename-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSource) return new Worker(entry, { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
