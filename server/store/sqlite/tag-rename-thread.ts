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
  private worker: Worker | null = null;
  private pending = new Map<number, Pending>();
  private seq = 0;

  constructor(private dataDir: string) {}

  /** Answers the ids of the renamed tags, the tag's first; rejects with the rename's ApiError. */
  rename(userId: string, id: string, newName: string, now: number): Promise<string[]> {
    const job: RenameJob = { seq: ++this.seq, userId, id, newName, now };
    return new Promise((resolve, reject) => {
      const worker = this.started();
      this.pending.set(job.seq, { resolve, reject });
      worker.ref();
      worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = startWorker({ dataDir: this.dataDir });
    worker.on('message', (answer: RenameAnswer) => this.settle(answer));
    const lost = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const { reject } of this.pending.values()) reject(err);
      this.pending.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the tag rename thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private settle(answer: RenameAnswer): void {
    const pending = this.pending.get(answer.seq);
    if (pending === undefined) return;
    this.pending.delete(answer.seq);
    // Idle, the thread is no reason for the process to stay up.
    if (this.pending.size === 0) this.worker?.unref();
    if ('ids' in answer) pending.resolve(answer.ids);
    else if ('refusal' in answer) pending.reject(new ApiError(answer.refusal.code, answer.refusal.message, answer.refusal.headers));
    else pending.reject(new Error(`tag rename failed on its thread: ${answer.failure}`));
  }
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
