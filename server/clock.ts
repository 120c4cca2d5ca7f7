/**
 * The server's one source of "now". Every time-based rule reads it, so that
 * --test-clock can move them all at once.
 */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): number {
    this.offsetMs += ms;
    return this.now();
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
