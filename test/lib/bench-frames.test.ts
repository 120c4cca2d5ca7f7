import { describe, expect, it } from 'vitest';
import { longestFrame, refreshesOf } from '../../bench/frames.ts';

/** A scroll of one-refresh frames with `long` among them (requestAnimationFrame's jittered timestamps). */
const scroll = (...long: number[]) => [...Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 16.6 : 16.8)), ...long];

describe("the bench's frames, counted in 60 Hz refreshes", () => {
  it('reads a jittered frame as the refreshes it spanned', () => {
    expect([16.5, 16.9, 33.2, 33.5, 49.8, 50.3, 100].map(refreshesOf)).toEqual([1, 1, 2, 2, 3, 3, 6]);
  });

  it('meets a 33 ms target with frames of two refreshes, however they jitter, and misses it with three', () => {
    expect(longestFrame(scroll(33.5, 33.2), 33)).toEqual({ result: '34 ms (2 refreshes)', met: true });
    expect(longestFrame(scroll(33.5, 50.1), 33)).toEqual({ result: '50 ms (3 refreshes)', met: false });
    expect(longestFrame(scroll(), 33)).toEqual({ result: '17 ms (1 refresh)', met: true });
  });

  it('judges a 50 ms target by three refreshes', () => {
    expect(longestFrame(scroll(50.3), 50).met).toBe(true);
    expect(longestFrame(scroll(66.7), 50).met).toBe(false);
  });

  it('refuses to judge frames that were not drawn at 60 Hz', () => {
    expect(() => longestFrame(Array.from({ length: 50 }, () => 33.3), 33)).toThrow('the page did not draw at 60 Hz: its quickest frames took 33 ms');
  });
});
