import { MAX_COLLECTION_DEPTH } from '../../lib/api/collections.ts';
import type { BookmarkType, InterchangeBookmark, SkipReason, SkippedEntry } from './types.ts';

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

export type UrlCheck = { ok: true; url: string } | ({ ok: false } & SkipReason);

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
  if (scheme === undefined) return { ok: false, reason: `invalid URL "${clip(url)}"`, group: 'invalid URL' };
  if (!ALLOWED_SCHEMES.has(`${scheme}:`)) return { ok: false, reason: `unsupported URL scheme "${scheme}:"` };
  if (!URL.canParse(url)) return { ok: false, reason: `invalid URL "${clip(url)}"`, group: 'invalid URL' };
  return { ok: true, url };
}

/** A skipped entry from a check's reason, at a line when the format has lines. */
export function skippedEntry(why: SkipReason, line?: number): SkippedEntry {
  return { ...(line === undefined ? {} : { line }), reason: why.reason, ...(why.group === undefined ? {} : { group: why.group }) };
}

/** A reason about one entry, named by its URL; grouped as the reason alone. */
export const aboutUrl = (url: string, why: SkipReason): SkipReason => ({ reason: `${clip(url)}: ${why.reason}`, group: why.group ?? why.reason });

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export function msToIso(ms: number | null): string | null {
  return ms !== null && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;
}

/**
 * Shelf keeps no reading state, but a reading service's archive is the user's own sorting
 * (what they finished with): it becomes this tag (Pocket's "Read Archive" and status
 * `archive`, Instapaper's Archive folder), one click to filter by or to remove.
 */
export const ARCHIVED_TAG = 'archived';

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

/** A folder whose name is empty (after trimming) still holds its bookmarks, under this name. */
export const UNTITLED_FOLDER = 'Untitled folder';

/**
 * The folder levels a file may give: as many as collections nest. A deeper folder is its
 * ancestor at the last level, where the import puts its bookmarks anyway. Reading every
 * level cost time and memory growing with the square of the depth or worse: 46 KB of
 * nested folders blocked the server for two minutes, and 5 MB would have for days.
 */
export const MAX_FOLDER_LEVELS = MAX_COLLECTION_DEPTH + 1;

/** The path of a folder in `parent`, or null when `parent` is at the last level (the folder is then `parent` itself). */
export function childPath(parent: readonly string[], name: string): string[] | null {
  return parent.length >= MAX_FOLDER_LEVELS ? null : [...parent, name.trim() || UNTITLED_FOLDER];
}

/** Trimmed segments, empty ones dropped, at most MAX_FOLDER_LEVELS of them. */
export function cleanPath(segments: Iterable<string>): string[] {
  const path: string[] = [];
  for (const segment of segments) {
    const name = segment.trim();
    if (name !== '') path.push(name);
    if (path.length === MAX_FOLDER_LEVELS) break;
  }
  return path;
}

export function parseBoolean(raw: string | undefined): boolean {
  return /^(true|1|yes|y)$/i.test(raw?.trim() ?? '');
}
