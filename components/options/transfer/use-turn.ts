import { useEffect, useRef, useState } from 'react';
import { MARGIN_MS, waitsForBudget } from '../../library/budget-retry.ts';
import { useNow } from '../../library/use-now.ts';

/**
 * A start the request budget refused, waiting for its turn: it goes again by
 * itself when there is room (the user need not watch the clock), unless cancelled.
 */
export function useTurn<T>(go: (input: T) => void) {
  const [waiting, setWaiting] = useState<{ input: T; at: number } | null>(null);
  const goRef = useRef(go);
  goRef.current = go;
  const now = useNow(waiting !== null);

  useEffect(() => {
    if (waiting === null) return;
    const timer = setTimeout(() => {
      setWaiting(null);
      goRef.current(waiting.input);
    }, Math.max(0, waiting.at - Date.now()));
    return () => clearTimeout(timer);
  }, [waiting]);

  return {
    /** Seconds until it goes again, or null when nothing waits. */
    secondsLeft: waiting === null ? null : Math.max(1, Math.ceil((waiting.at - now) / 1000)),
    /** Waits for the turn of `input` when `error` is a refusal for the budget; false for any other failure. */
    wait(input: T, error: unknown): boolean {
      if (!waitsForBudget(error)) return false;
      setWaiting({ input, at: Date.now() + error.retryAfterSeconds * 1000 + MARGIN_MS });
      return true;
    },
    cancel: () => setWaiting(null),
  };
}
