import { DAY } from '../clock.ts';

/**
 * The dates an import accepts: from 1990-01-01 (before the first web browser, so nothing
 * earlier is a real bookmark's date) to one day after the import started (room for clocks
 * and time zones, none for dates from the future). Anything else is damage or an attack:
 * 9999999999999999 once imported, and then broke every answer that showed it.
 */
export interface DateRange {
  earliest: number;
  latest: number;
}

export const EARLIEST_IMPORT_DATE = Date.UTC(1990, 0, 1);

export const importDateRange = (now: number): DateRange => ({ earliest: EARLIEST_IMPORT_DATE, latest: now + DAY });

export const describeRange = (range: DateRange): string => `between ${day(range.earliest)} and ${day(range.latest)}`;

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** What a file's date field says: nothing (ms null), a date in the range, or why it is neither. */
export type DateRead = { ok: true; ms: number | null } | { ok: false; reason: string; group: string };

/**
 * Reads one date field. Absent, empty and 0 (every exporter's "unknown") are no date, and the
 * bookmark gets the import's time; any other value must convert (toMs gives NaN when the text
 * is no date) to a time in the range, or the entry is refused with this reason.
 */
export function readDate(field: string, raw: string | number | null | undefined, toMs: (text: string) => number, range: DateRange): DateRead {
  const text = typeof raw === 'number' ? String(raw) : (raw?.trim() ?? '');
  if (text === '' || text === '0') return { ok: true, ms: null };
  const ms = toMs(text);
  if (Number.isFinite(ms) && ms >= range.earliest && ms <= range.latest) return { ok: true, ms: Math.round(ms) };
  const group = `a date not ${describeRange(range)}`;
  return { ok: false, reason: `${field} "${clip(text)}" is not a date ${describeRange(range)}`, group };
}

const clip = (text: string): string => (text.length > 40 ? `${text.slice(0, 37)}...` : text);

/**
 * An epoch number in the unit its magnitude says: exporters disagree (seconds from browsers,
 * milliseconds from some services, microseconds from Firefox and Google Bookmarks).
 */
export function epochToMs(text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text)) return Number.NaN;
  const value = Number(text);
  if (value < 1e11) return value * 1000;
  if (value < 1e14) return value;
  return value / 1000;
}

/** Milliseconds, exactly (our own exports' DATA-CREATED and JSON numbers). */
export const exactMs = (text: string): number => (/^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN);

/** ISO 8601 (what our exports and Raindrop write) or, failing that, an epoch number. */
export const isoOrEpochToMs = (text: string): number => (/^\d+(\.\d+)?$/.test(text) ? epochToMs(text) : Date.parse(text));

/** Microseconds since 1601-01-01, Chromium's (and Windows') clock. */
const WINDOWS_EPOCH_MS = Date.UTC(1601, 0, 1);
export const chromiumToMs = (text: string): number => (/^\d+$/.test(text) ? Number(text) / 1000 + WINDOWS_EPOCH_MS : Number.NaN);

/** Microseconds since the epoch, Firefox's PRTime. */
export const microsToMs = (text: string): number => (/^\d+$/.test(text) ? Number(text) / 1000 : Number.NaN);
