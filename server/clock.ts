/**
 * Where the test clock's offset lives when several instances share one clock (Redis):
 * `add` moves it for all and answers the new offset.
 */
export interface SharedOffset {
  read(): Promise<number>;
  add(ms: number): Promise<number>;
}

/**
 * The server's one source of "now". Every time-based rule reads it, so that
 * --test-clock can move them all at once. `now()` stays synchronous: with a shared
 * offset, each request first takes it up (`sync`), so that a move made through another
 * instance holds from this instance's next request on.
 */
export class Clock {
  /** As this process last read the shared offset (0 without one). */
  private sharedMs = 0;
  /** This process's own moves, on top. */
  private localMs = 0;

  constructor(private readonly shared: SharedOffset | null = null) {}

  now(): number {
    return Date.now() + this.sharedMs + this.localMs;
  }

  /** Moves this process's clock alone. */
  advance(ms: number): number {
    this.localMs += ms;
    return this.now();
  }

  /** POST /__test__/clock: moves the clock of every instance that shares the offset (only this one's without). */
  async advanceAll(ms: number): Promise<number> {
    if (this.shared === null) return this.advance(ms);
    this.sharedMs = Math.max(this.sharedMs, await this.shared.add(ms));
    return this.now();
  }

  /** Takes up the shared offset, which another instance may have moved; never back (a clock only moves ahead). */
  async sync(): Promise<void> {
    if (this.shared !== null) this.sharedMs = Math.max(this.sharedMs, await this.shared.read());
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The farthest a Date reaches either side of 1970 (ECMAScript's time range). */
const DATE_LIMIT_MS = 8.64e15;

/**
 * A stored time in ISO 8601, for every value a column can hold: one no Date can show
 * (imports before dates were checked wrote 1e16) shows as the nearest one a Date can, so
 * that reading a row never fails and the bookmark can still be seen, fixed and removed.
 */
export const iso = (ms: number): string =>
  new Date(Number.isNaN(ms) ? 0 : Math.min(DATE_LIMIT_MS, Math.max(-DATE_LIMIT_MS, ms))).toISOString();
