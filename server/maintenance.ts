/**
 * Periodic clean-up (expired trash, idempotency records, later job artifacts):
 * run at start, on a timer, and after the test clock moves.
 */
export type MaintenanceTask = (now: number) => Promise<unknown>;

export class Maintenance {
  private tasks: { name: string; run: MaintenanceTask }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private now: () => number) {}

  add(name: string, run: MaintenanceTask): void {
    this.tasks.push({ name, run });
  }

  /** Runs every task once; a failing task is reported and does not stop the others. */
  run(): Promise<void> {
    this.running ??= (async () => {
      for (const task of this.tasks) {
        try {
          await task.run(this.now());
        } catch (err) {
          console.error(`maintenance task ${task.name} failed:`, err);
        }
      }
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.run(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
