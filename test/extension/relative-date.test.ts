// @vitest-environment node
import { afterEach, expect, it, vi } from 'vitest';

const DAY = 24 * 60 * 60_000;
const Real = Intl.RelativeTimeFormat;
let made = 0;
/** Intl's formatter, counting the ones made: the library page makes its one while idle, before any age is told. */
class Counted extends Real {
  constructor(...args: ConstructorParameters<typeof Real>) {
    super(...args);
    made++;
  }
}

/** Intl's formatter class, replaced for a test (typed read-only, writable in every engine). */
const setFormatter = (formatter: typeof Real) => Object.defineProperty(Intl, 'RelativeTimeFormat', { value: formatter });

afterEach(() => {
  setFormatter(Real);
  made = 0;
});

/** relative-date.ts loaded afresh (its formatter is module state), with the counting formatter in place. */
async function freshModule() {
  setFormatter(Counted);
  vi.resetModules();
  return import('../../components/library/relative-date.ts');
}

it('makes no formatter when loaded; prepareRelativeDates makes the one that every later age is told with', async () => {
  const { prepareRelativeDates, relativeDate } = await freshModule();
  expect(made).toBe(0);
  prepareRelativeDates();
  expect(made).toBe(1);
  const now = Date.UTC(2026, 10, 29, 12);
  expect(relativeDate(now - 3 * DAY, now)).toBe(new Real(undefined, { numeric: 'auto' }).format(-3, 'day'));
  expect(relativeDate(new Date(now - 2 * 365 * DAY).toISOString(), now)).toBe(new Real(undefined, { numeric: 'auto' }).format(-2, 'year'));
  prepareRelativeDates();
  expect(made).toBe(1);
});

it('tells an age without being prepared, and nothing for a time it cannot read or one under a minute old', async () => {
  const { relativeDate } = await freshModule();
  const now = Date.UTC(2026, 10, 29, 12);
  expect(relativeDate('not a date', now)).toBe('');
  expect(made).toBe(0);
  expect(relativeDate(now - 30_000, now)).toBe('just now');
  // A time ahead of this clock reads as now.
  expect(relativeDate(now + 5 * DAY, now)).toBe('just now');
  expect(relativeDate(now - 2 * 60 * 60_000, now)).toBe(new Real(undefined, { numeric: 'auto' }).format(-2, 'hour'));
  expect(made).toBe(1);
});
