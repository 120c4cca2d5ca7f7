import { useLayoutEffect, useState } from 'react';

/** The time, updated every `everyMs` while `active`: for "possible in 25 s" countdowns. */
export function useNow(active: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(Date.now);
  // Read again as it becomes active, before the page paints: a countdown drawn with the time of the page's first
  // render, seconds before its wait began, said "64 seconds" of a 62-second wait until the next tick.
  useLayoutEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
