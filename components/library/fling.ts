import { useState } from 'react';

/**
 * Whether the list is being flung: its view moved by more than its own height from one drawn range to the next, while
 * it still scrolls, and not by the keyboard. Every frame of a fling brings in a whole new view of grid tiles (about 35),
 * each a link, a checkbox, a cover and a favicon to build, style and paint, for a view that is gone a frame later; the
 * items entering then draw a light tile (`useDrawnFull`). A keyboard's move draws full items: it is a user following
 * the items, not flinging past them.
 */
export function useFling(offset: number, scrolling: boolean, viewHeight: number, byKeys: boolean): boolean {
  const [last, setLast] = useState({ offset, far: false });
  if (offset === last.offset) return scrolling && !byKeys && last.far;
  // The range before this one is known only here: React renders this component again at once with it stored.
  const far = Math.abs(offset - last.offset) > viewHeight;
  setLast({ offset, far });
  return scrolling && !byKeys && far;
}

/**
 * Whether an item draws in full: an item that entered light turns full once the fling is over, and an item drawn in full
 * stays so (it may hold the focus, and its elements are built already).
 */
export function useDrawnFull(light: boolean): boolean {
  const [full, setFull] = useState(!light);
  if (full || light) return full;
  setFull(true);
  return true;
}
