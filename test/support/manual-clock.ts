import type { Clock } from '../../lib/client/scheduler.ts';

/** A clock that moves only when told: the scheduler's tests and the bench live through minutes and days in no time. */
export class ManualClock implements Clock {
  private current: number;
  private timers = new Map<number, { at: number; run: () => void }>();
  private nextId = 1;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(run: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.current + Math.max(0, ms), run });
    return id;
  }

  clearTimeout(timer: unknown): void {
    this.timers.delete(timer as number);
  }

  /** Moves forward by `ms`, firing each timer at its own time and letting the promises it settles run before the next. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      await settle();
      const next = [...this.timers.entries()].sort(([, a], [, b]) => a.at - b.at)[0];
      if (!next || next[1].at > end) break;
      this.timers.delete(next[0]);
      this.current = Math.max(this.current, next[1].at);
      next[1].run();
    }
    this.current = end;
    await settle();
  }

  /** When the next timer fires; null when none is set. */
  nextTimerAt(): number | null {
    const ats = [...this.timers.values()].map((t) => t.at);
    return ats.length ? Math.min(...ats) : null;
  }
}

/** Lets every promise chain that is ready run (a few macrotask turns, as fetch-like chains span several). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Real time moved forward by what the test says: a background that must agree with a test server whose clock was advanced. */
export class ShiftedClock implements Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  setTimeout(run: () => void, ms: number): unknown {
    return setTimeout(run, ms);
  }

  clearTimeout(timer: unknown): void {
    clearTimeout(timer as ReturnType<typeof setTimeout>);
  }

  advance(ms: number): void {
    this.offset += ms;
  }
}
