import { z } from 'zod';
import { CollectionSet } from '../collections.ts';
import { type DateRange, exactMs, isoOrEpochToMs, readDate } from '../dates.ts';
import { UnsupportedFormatError } from '../errors.ts';
import type { ExportSource, InterchangeBookmark, ParsedImport, SkippedEntry } from '../types.ts';
import { BOOKMARK_TYPES, aboutUrl, checkUrl, cleanPath, cleanTags, msToIso } from '../values.ts';

/**
 * Our JSON export is the interchange model itself, so it round-trips exactly:
 *
 *   { version: 1, exportedAt: ISO,
 *     collections: [{ path, icon, color, notes }],
 *     bookmarks: [{ url, title, description, note, type, isFavorite, tags, collectionPath,
 *                   createdAt: ISO | null }] }
 */
export const SHELF_JSON_VERSION = 1;

// Only the envelope is checked as a whole; entries are validated one by one so that a
// single damaged entry costs that entry, not the file.
const Envelope = z.object({
  version: z.number(),
  bookmarks: z.array(z.unknown()),
  collections: z.array(z.unknown()).optional(),
});

const CollectionEntry = z.object({
  path: z.array(z.string()),
  icon: z.string().default(''),
  color: z.string().default(''),
  notes: z.string().default(''),
});

// Optional fields get the same defaults a fresh bookmark has, so a hand-trimmed file
// still imports; a present field of the wrong kind is damage and skips the entry.
const BookmarkEntry = z.object({
  url: z.string(),
  title: z.string().default(''),
  description: z.string().default(''),
  note: z.string().default(''),
  type: z.enum(BOOKMARK_TYPES).default('link'),
  isFavorite: z.boolean().default(false),
  tags: z.array(z.string()).default([]),
  collectionPath: z.array(z.string()).default([]),
  createdAt: z.union([z.string(), z.number(), z.null()]).default(null),
});

/** Our export is the only JSON we read, so detection may as well parse it fully. */
export function looksLikeShelfJson(text: string): boolean {
  if (!text.trimStart().startsWith('{')) return false;
  try {
    return Envelope.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
}

export function parseShelfJson(text: string, range: DateRange): ParsedImport {
  const envelope = Envelope.safeParse(safeJson(text));
  if (!envelope.success) throw new UnsupportedFormatError('not a Shelf JSON export');
  if (envelope.data.version !== SHELF_JSON_VERSION) {
    throw new UnsupportedFormatError(`Shelf JSON export version ${envelope.data.version} is not supported`);
  }
  const skipped: SkippedEntry[] = [];
  const collections = new CollectionSet();

  for (const [i, raw] of (envelope.data.collections ?? []).entries()) {
    const entry = CollectionEntry.safeParse(raw);
    const path = entry.success ? cleanPath(entry.data.path) : [];
    if (!entry.success || path.length === 0) {
      const group = entry.success ? 'collection with an empty path' : 'unreadable collection entry';
      skipped.push({ reason: `collection #${i + 1}: ${entry.success ? 'empty path' : describe(entry.error)}`, group });
      continue;
    }
    collections.add(path, entry.data);
  }

  const bookmarks: InterchangeBookmark[] = [];
  for (const [i, raw] of envelope.data.bookmarks.entries()) {
    const entry = BookmarkEntry.safeParse(raw);
    if (!entry.success) {
      skipped.push({ reason: `bookmark #${i + 1}: ${describe(entry.error)}`, group: 'unreadable bookmark entry' });
      continue;
    }
    const url = checkUrl(entry.data.url);
    if (!url.ok) {
      skipped.push({ reason: `bookmark #${i + 1}: ${url.reason}`, group: url.group ?? url.reason });
      continue;
    }
    const value = entry.data.createdAt;
    const created = readDate('createdAt', value, typeof value === 'number' ? exactMs : isoOrEpochToMs, range);
    if (!created.ok) {
      skipped.push(aboutUrl(url.url, created));
      continue;
    }
    const collectionPath = cleanPath(entry.data.collectionPath);
    collections.add(collectionPath);
    bookmarks.push({
      ...entry.data,
      url: url.url,
      tags: cleanTags(entry.data.tags),
      collectionPath,
      createdAt: created.ms,
    });
  }
  return { format: 'shelf-json', bookmarks, collections: collections.list(), skipped };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid entry';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}


// One bookmark per line: still a single JSON document, but compact enough for large
// libraries to stay under the 5 MB import limit on re-import, and diff-friendly.
export async function* shelfJsonChunks(source: ExportSource): AsyncGenerator<string> {
  yield `{"version":${SHELF_JSON_VERSION},"exportedAt":${JSON.stringify(msToIso(source.exportedAt))},\n"collections":[`;
  yield source.collections.map((c) => `\n${JSON.stringify({ path: c.path, icon: c.icon, color: c.color, notes: c.notes })}`).join(',');
  yield '\n],\n"bookmarks":[';
  let first = true;
  for await (const page of source.bookmarks()) {
    if (page.length === 0) continue;
    yield (first ? '' : ',') + page.map((b) => `\n${JSON.stringify(toEntry(b))}`).join(',');
    first = false;
  }
  yield '\n]}\n';
}

function toEntry(b: InterchangeBookmark): z.input<typeof BookmarkEntry> {
  return {
    url: b.url,
    title: b.title,
    description: b.description,
    note: b.note,
    type: b.type,
    isFavorite: b.isFavorite,
    tags: b.tags,
    collectionPath: b.collectionPath,
    createdAt: msToIso(b.createdAt),
  };
}
