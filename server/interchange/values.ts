import type { BookmarkType, InterchangeBookmark } from './types.ts';

export const BOOKMARK_TYPES = ['link', 'article', 'image', 'video', 'document'] as const satisfies readonly BookmarkType[];

export function isBookmarkType(value: string): value is BookmarkType {
  return (BOOKMARK_TYPES as readonly string[]).includes(value);
}

export function newBookmark(url: string, fields: Partial<Omit<InterchangeBookmark, 'url'>> = {}): InterchangeBookmark {
  return {
    url,
    title: fields.title ?? '',
    description: fields.description ?? '',
    note: fields.note ?? '',
    type: fields.type ?? 'link',
    isFavorite: fields.isFavorite ?? false,
    tags: fields.tags ?? [],
    collectionPath: fields.collectionPath ?? [],
    createdAt: fields.createdAt ?? null,
  };
}

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

// An allowlist rather than a blocklist: browser-internal schemes keep multiplying
// (chrome:, edge:, vivaldi:, moz-extension:, place:...) and none of them means anything
// outside the browser that wrote them, nor do file: paths on a server.
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'ftp:']);

/**
 * The URL is kept as written (only trimmed), not re-serialised by `new URL`, so that an
 * export/import round trip gives back the very same string; normalising for duplicate
 * detection is the importer's business.
 */
export function checkUrl(raw: string | undefined): UrlCheck {
  const url = raw?.trim() ?? '';
  if (url === '') return { ok: false, reason: 'missing URL' };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return { ok: false, reason: `invalid URL "${clip(url)}"` };
  if (!ALLOWED_SCHEMES.has(`${scheme}:`)) return { ok: false, reason: `unsupported URL scheme "${scheme}:"` };
  if (!URL.canParse(url)) return { ok: false, reason: `invalid URL "${clip(url)}"` };
  return { ok: true, url };
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

// Exporters disagree on the unit (seconds from browsers, milliseconds from some web
// services, microseconds from Firefox internals leaking out), so the magnitude decides.
// Anything outside 1990..2100 is a placeholder (0, -1, 1) or garbage: unknown beats wrong.
const EARLIEST = Date.UTC(1990, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);

export function epochToMs(raw: string | undefined): number | null {
  const text = raw?.trim() ?? '';
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const value = Number(text);
  let ms: number;
  if (value < 1e11) ms = value * 1000;
  else if (value < 1e14) ms = value;
  else if (value < 1e17) ms = value / 1000;
  else return null;
  ms = Math.round(ms);
  return ms >= EARLIEST && ms <= LATEST ? ms : null;
}

/** ISO 8601 (what our exports and Raindrop write) or, failing that, an epoch number. */
/** A time a JavaScript Date can hold (±8.64e15 ms): anything else would break every answer that shows it. */
export const isDateTime = (ms: number): boolean => Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;

export function dateToMs(raw: string | undefined): number | null {
  const text = raw?.trim() ?? '';
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return epochToMs(text);
  const ms = Date.parse(text);
  return isDateTime(ms) ? ms : null;
}

export function msToIso(ms: number | null): string | null {
  return ms !== null && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;
}

// Names are trimmed and empty ones dropped in every format: a tag or folder called ''
// or ' x ' is never what the user meant, and it keeps the CSV/HTML encodings simple.
export function cleanTags(tags: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const tag of tags) {
    const name = tag.trim();
    if (name !== '') seen.add(name);
  }
  return [...seen];
}

export function cleanPath(segments: Iterable<string>): string[] {
  const path: string[] = [];
  for (const segment of segments) {
    const name = segment.trim();
    if (name !== '') path.push(name);
  }
  return path;
}

export function parseBoolean(raw: string | undefined): boolean {
  return /^(true|1|yes|y)$/i.test(raw?.trim() ?? '');
}
