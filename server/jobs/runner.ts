/** One job's work; it should stop at its next safe point once the signal is aborted. */
export type JobTask = (signal: AbortSignal) => Promise<void>;

/**
 * Runs jobs off the request, a few at a time, in the order they came. Jobs keep their
 * state in the store, so stopping only has to let the running ones reach a safe point:
 * what was queued or cut short is picked up again by the next start (see recovery.ts).
 */
export class JobRunner {
  private readonly queue: { id: string; task: JobTask }[] = [];
  private readonly active = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly concurrency = 2) {}

  /** Queues a job unless it is already queued or running, or the runner is stopping. */
  enqueue(id: string, task: JobTask): void {
    if (this.stopping.signal.aborted || this.active.has(id) || this.queue.some((q) => q.id === id)) return;
    this.queue.push({ id, task });
    // On a later turn, so that the request that queued the job is answered first.
    setImmediate(() => this.pump());
  }

  /** Resolves when nothing is queued or running (for tests and benchmarks). */
  async idle(): Promise<void> {
    while (this.active.size > 0 || this.queue.length > 0) {
      await Promise.all(this.active.values());
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Drops the queue, asks running jobs to stop, and waits for them. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.queue.length = 0;
    await Promise.all(this.active.values());
  }

  private pump(): void {
    while (this.active.size < this.concurrency && !this.stopping.signal.aborted) {
      const next = this.queue.shift();
      if (next === undefined) return;
      const run = next
        .task(this.stopping.signal)
        .catch((err: unknown) => console.error(`job ${next.id} crashed:`, err))
        .finally(() => {
          this.active.delete(next.id);
          this.pump();
        });
      this.active.set(next.id, run);
    }
  }
}
