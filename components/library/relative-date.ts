const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * DAY],
  ['month', 30 * DAY],
  ['week', 7 * DAY],
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
];

// Made when first needed: the side panel's early script loads this module too, and may tell no age.
let format: Intl.RelativeTimeFormat | undefined;
const formatter = () => (format ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }));

/**
 * Makes the formatter before the first age is told. The first Intl formatter of a renderer process loads ICU's
 * locale data (30-190 ms in headless Chromium at load 6-12; this one after another kind 5-18 ms; 0.2 ms for every
 * one after it, in any page of the extension): the library page, whose cards and grid tell no age, calls this once
 * idle, so that the first switch to the list view does not pay it.
 */
export function prepareRelativeDates(): void {
  formatter();
}

/** "3 days ago", "just now": the largest unit that fits. */
export function relativeDate(at: string | number, now = Date.now()): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return '';
  // A time ahead of this computer's clock (another clock's) reads as now, never "in 2 minutes".
  const diff = Math.min(0, ms - now);
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size) return formatter().format(Math.round(diff / size), unit);
  }
  return 'just now';
}
