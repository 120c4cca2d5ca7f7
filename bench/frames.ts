import { percentile } from './stats.ts';
import { fmtMs } from './table.ts';

/** Headless Chromium draws at 60 Hz: a frame lasts a whole number of refreshes. */
const REFRESH_MS = 1000 / 60;

/**
 * How many refreshes a frame (or a target given in ms) spans. requestAnimationFrame's timestamps are the refreshes'
 * own times and jitter by a fraction of a millisecond: a frame held over two refreshes reads 33.2-33.5 ms, which is
 * the 33 ms (30 frames a second) of a target, not a longer frame.
 */
export const refreshesOf = (ms: number): number => Math.max(1, Math.round(ms / REFRESH_MS));

/**
 * A scroll's longest frame, judged against a target in ms by the refreshes each spans (`refreshesOf`). Throws when
 * the page's quickest frames were not one 60 Hz refresh: then a frame's refreshes cannot be counted.
 */
export function longestFrame(frames: readonly number[], targetMs: number): { result: string; met: boolean } {
  const quick = percentile(frames, 5);
  if (Math.abs(quick - REFRESH_MS) > 2) throw new Error(`the page did not draw at 60 Hz: its quickest frames took ${fmtMs(quick)}`);
  const longest = Math.max(...frames);
  const refreshes = refreshesOf(longest);
  return { result: `${fmtMs(longest)} (${refreshes} ${refreshes === 1 ? 'refresh' : 'refreshes'})`, met: refreshes <= refreshesOf(targetMs) };
}
