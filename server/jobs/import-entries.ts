import { MAX_TAG_DEPTH, MAX_TAGS_PER_BOOKMARK, TagName, tagDepth } from '../../lib/api/bookmarks.ts';
import { isSafeColor } from '../../lib/api/color.ts';
import { MAX_COLLECTION_DEPTH } from '../../lib/api/collections.ts';
import { httpUrl } from '../../lib/api/common.ts';
import { titleOr } from '../bookmarks/title.ts';
import type { InterchangeBookmark, InterchangeCollection } from '../interchange/types.ts';
import type { ImportEntry } from '../store/jobs.ts';

/** The API's own limits (lib/api), which imported text is cut to rather than losing the bookmark. */
const MAX = { title: 2000, description: 10_000, note: 10_000, collectionName: 200, icon: 64, notes: 10_000, tag: 200 };
const MAX_URL = 8192;

/** Cuts text to at most max UTF-16 units without splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}

/** Folders deeper than collections may nest land in their ancestor at the deepest allowed level. */
export function importPath(path: readonly string[]): string[] {
  return path
    .slice(0, MAX_COLLECTION_DEPTH + 1)
    .map((name) => clip(name.trim(), MAX.collectionName).trim())
    .filter((name) => name !== '');
}

/** A colour the API would refuse (say `url(//tracker.example/c.gif)`) is dropped, the folder kept. */
export function importCollection(c: InterchangeCollection): InterchangeCollection {
  const color = c.color.trim();
  return { path: importPath(c.path), icon: clip(c.icon, MAX.icon), color: isSafeColor(color) ? color : '', notes: clip(c.notes, MAX.notes) };
}

/**
 * Tag names as POST /bookmarks takes them: names it would refuse are dropped, not the
 * bookmark; but a bookmark over a tag cap is refused whole, with the reason (a string), as
 * POST /bookmarks would refuse it.
 */
function importTags(names: readonly string[]): string[] | string {
  const kept = new Map<string, string>();
  for (const raw of names) {
    const clipped = clip(raw, MAX.tag);
    if (tagDepth(clipped) > MAX_TAG_DEPTH) return `the tag "${clip(clipped, 100)}" has more than ${MAX_TAG_DEPTH} levels, the most a tag may have`;
    const name = TagName.safeParse(clipped);
    if (name.success && !kept.has(name.data.toLowerCase())) kept.set(name.data.toLowerCase(), name.data);
  }
  if (kept.size > MAX_TAGS_PER_BOOKMARK) return `${kept.size} tags, more than the ${MAX_TAGS_PER_BOOKMARK} a bookmark may have`;
  return [...kept.values()];
}

/**
 * One bookmark of the file as the import writes it, or why it is skipped: the URL must be
 * one POST /bookmarks accepts; texts too long for the API are cut, not refused.
 */
export function importEntry(b: InterchangeBookmark): ImportEntry {
  const shown = clip(b.url, 100);
  if (b.url.length > MAX_URL) {
    return { ok: false, reason: `${shown}...: the URL is longer than ${MAX_URL} characters`, group: `URL longer than ${MAX_URL} characters` };
  }
  const url = httpUrl.safeParse(b.url);
  if (!url.success) return { ok: false, reason: `${shown}: not an http or https URL`, group: 'not an http or https URL' };
  const tags = importTags(b.tags);
  if (typeof tags === 'string') return { ok: false, reason: `${shown}: ${tags}` };
  return {
    ok: true,
    url: url.data,
    title: clip(titleOr(b.title.trim(), url.data), MAX.title),
    description: clip(b.description.trim(), MAX.description),
    note: clip(b.note, MAX.note),
    type: b.type,
    isFavorite: b.isFavorite,
    tags,
    collectionPath: importPath(b.collectionPath),
    // In the import's range already: the parser skipped the entry otherwise.
    createdAt: b.createdAt,
  };
}
