import { type TransferListItem, Worker, parentPort, workerData } from 'node:worker_threads';
import type { ErrorCode } from '../../../lib/api/errors.ts';
import { ApiError } from '../../http/api-error.ts';

/** What every store thread is started with: the data directory whose database it opens a connection of its own to. */
export interface StoreThreadData {
  dataDir: string;
}

/** A job's value, the ApiError that refused it, or what else went wrong (a stack). */
type Answer<V> =
  | { seq: number; value: V }
  | { seq: number; refusal: { code: ErrorCode; message: string; headers: Record<string, string> } }
  | { seq: number; failure: string };

type Pending<V> = { resolve: (value: V) => void; reject: (err: Error) => void };
type Thread<V> = { worker: Worker; pending: Map<number, Pending<V>> };

/**
 * Work that would hold SQLite (and so the event loop) for tens of milliseconds, run on a worker
 * thread with its own connection to the database, one job at a time, so that the event loop
 * goes on serving other users meanwhile. `entry` names the worker module beside this one, which
 * answers with serveStoreJobs. The thread starts with the first job and is kept; idle, it is no
 * reason for the process to stay up.
 */
export class StoreThread<J, V> {
  private thread: Thread<V> | null = null;
  private seq = 0;

  /** `what` names the work in errors ("tag rename"). */
  constructor(
    private entry: string,
    private dataDir: string,
    private what: string,
  ) {}

  /** The job's value; rejects with the ApiError the job threw, or an Error for anything else. */
  run(job: J): Promise<V> {
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      const { worker, pending } = this.started();
      pending.set(seq, { resolve, reject });
      worker.ref();
      worker.postMessage({ seq, job });
    });
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    await thread?.worker.terminate();
  }

  private started(): Thread<V> {
    if (this.thread !== null) return this.thread;
    const thread: Thread<V> = { worker: startWorker(this.entry, { dataDir: this.dataDir }), pending: new Map() };
    const { worker, pending } = thread;
    worker.on('message', (answer: Answer<V>) => {
      this.settle(pending, answer);
      if (pending.size === 0) worker.unref();
    });
    // Its jobs fail with it (a transaction not yet committed leaves nothing); the next job starts another thread.
    const lost = (err: Error) => {
      if (this.thread === thread) this.thread = null;
      for (const { reject } of pending.values()) reject(err);
      pending.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the ${this.what} thread stopped (exit code ${code})`)));
    this.thread = thread;
    return thread;
  }

  private settle(pending: Map<number, Pending<V>>, answer: Answer<V>): void {
    const waiting = pending.get(answer.seq);
    if (waiting === undefined) return;
    pending.delete(answer.seq);
    if ('value' in answer) waiting.resolve(answer.value);
    else if ('refusal' in answer) waiting.reject(new ApiError(answer.refusal.code, answer.refusal.message, answer.refusal.headers));
    else waiting.reject(new Error(`${this.what} failed on its thread: ${answer.failure}`));
  }
}

/**
 * The worker's side: opens what it needs from the data directory once (`open`), then answers each
 * job with `handle`'s value; the buffers `transfer` names move to the server's thread uncopied.
 */
export function serveStoreJobs<J, V, R>(
  open: (dataDir: string) => R,
  handle: (resource: R, job: J) => V,
  transfer: (value: V) => TransferListItem[] = () => [],
): void {
  const resource = open((workerData as StoreThreadData).dataDir);
  const port = parentPort!;
  port.on('message', ({ seq, job }: { seq: number; job: J }) => {
    const answer = answerOf(seq, () => handle(resource, job));
    port.postMessage(answer, 'value' in answer ? transfer(answer.value) : []);
  });
}

function answerOf<V>(seq: number, run: () => V): Answer<V> {
  try {
    return { seq, value: run() };
  } catch (err) {
    if (err instanceof ApiError) return { seq, refusal: { code: err.code, message: err.message, headers: err.headers } };
    return { seq, failure: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
}

/**
 * The worker module `entry` beside this one: JavaScript in the bundle (npm run build:server puts
 * it beside main.js), TypeScript when the server runs from source, where the thread does not
 * inherit the loader the server runs under (tsx, or vitest's) and registers tsx itself first.
 */
function startWorker(entry: string, data: StoreThreadData): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(`./${entry}.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSource) return new Worker(url, { workerData: data });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { eval: true, workerData: data });
}
