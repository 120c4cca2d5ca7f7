import { describe, expect, it } from 'vitest';
import {
  chromiumToMs,
  epochToMs,
  exactMs,
  importDateRange,
  isoOrEpochToMs,
  microsToMs,
  readDate,
} from '../../../server/interchange/dates.ts';

const now = Date.UTC(2026, 10, 25, 12);
const range = importDateRange(now);
const refused = (field: string, raw: string) => ({
  ok: false,
  reason: `${field} "${raw}" is not a date between 1990-01-01 and 2026-11-26`,
  group: 'a date not between 1990-01-01 and 2026-11-26',
});

describe('readDate', () => {
  it.each([
    ['1466010266', 1466010266000],
    ['1466010266123', 1466010266123],
    ['1466010266123456', 1466010266123],
    [' 1466010266 ', 1466010266000],
    ['631152000', Date.UTC(1990, 0, 1)],
    [String((now + 86_400_000) / 1000), now + 86_400_000],
  ] as const)('reads the epoch number %s by its magnitude', (raw, ms) => {
    expect(readDate('ADD_DATE', raw, epochToMs, range)).toEqual({ ok: true, ms });
  });

  it.each([[''], ['0'], ['  '], [undefined], [null]])('takes %j for no date', (raw) => {
    expect(readDate('ADD_DATE', raw, epochToMs, range)).toEqual({ ok: true, ms: null });
  });

  it.each([
    ['9999999999999999'],
    ['99999999999999999999'],
    ['631151999'],
    [String((now + 86_400_000) / 1000 + 1)],
    ['-1466010266'],
    ['1e9'],
    ['yesterday'],
  ])('refuses %s, naming the field and the accepted range', (raw) => {
    expect(readDate('ADD_DATE', raw, epochToMs, range)).toEqual(refused('ADD_DATE', raw));
  });

  it('refuses exact milliseconds no Date can hold, and numbers as well as text', () => {
    expect(readDate('DATA-CREATED', '9999999999999999', exactMs, range)).toEqual(refused('DATA-CREATED', '9999999999999999'));
    expect(readDate('createdAt', 1e16, exactMs, range)).toEqual(refused('createdAt', '10000000000000000'));
    expect(readDate('createdAt', 1e300, exactMs, range)).toEqual(refused('createdAt', '1e+300'));
    expect(readDate('createdAt', 1600000000000.4, exactMs, range)).toEqual({ ok: true, ms: 1600000000000 });
  });

  it('reads ISO 8601 and refuses it outside the range', () => {
    expect(readDate('created', '2016-06-15T17:04:26.123Z', isoOrEpochToMs, range)).toEqual({ ok: true, ms: 1466010266123 });
    expect(readDate('created', '1969-12-31T00:00:00.000Z', isoOrEpochToMs, range)).toEqual(refused('created', '1969-12-31T00:00:00.000Z'));
    expect(readDate('created', '+275760-09-13T00:00:00.000Z', isoOrEpochToMs, range).ok).toBe(false);
  });

  it('clips a long value in the reason', () => {
    const read = readDate('created', 'x'.repeat(500), isoOrEpochToMs, range);
    expect(read.ok === false && read.reason).toBe(`created "${'x'.repeat(37)}..." is not a date between 1990-01-01 and 2026-11-26`);
  });
});

describe('browser clocks', () => {
  it('reads Chromium microseconds since 1601 and Firefox microseconds since 1970', () => {
    expect(new Date(chromiumToMs('13084680099000000')).toISOString()).toBe('2015-08-22T01:21:39.000Z');
    expect(new Date(microsToMs('1599750511000000')).toISOString()).toBe('2020-09-10T15:08:31.000Z');
    expect(chromiumToMs('-5')).toBeNaN();
    expect(microsToMs('1.5e15')).toBeNaN();
  });
});
