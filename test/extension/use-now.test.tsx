// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, expect, it, vi } from 'vitest';
import { useNow } from '../../components/library/use-now.ts';
import { closeDom } from './support/dom.ts';

/** A wait of a minute, counted down as the import's turn and the smart folders' next evaluation are. */
function Countdown() {
  const [until, setUntil] = useState<number | null>(null);
  const now = useNow(until !== null);
  return (
    <>
      <button type="button" onClick={() => setUntil(Date.now() + 60_000)}>
        Wait
      </button>
      {until !== null && <p>Goes in {Math.ceil((until - now) / 1000)} s</p>}
    </>
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
afterAll(closeDom);

it('counts a wait from when it began, in its first paint, not from when the page first rendered', () => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  render(<Countdown />);
  // The page open for a while (or its first requests slow): nothing counted down meanwhile.
  vi.advanceTimersByTime(5_000);
  act(() => screen.getByRole('button', { name: 'Wait' }).click());
  expect(screen.getByText(/^Goes in/).textContent).toBe('Goes in 60 s');
  act(() => vi.advanceTimersByTime(1_000));
  expect(screen.getByText(/^Goes in/).textContent).toBe('Goes in 59 s');
});
