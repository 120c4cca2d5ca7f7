import type { DuplicateBookmark, PatchBookmarkBody } from '../../lib/api/bookmarks.ts';

/** How much a user put into a bookmark: what a merge would lose if it were trashed. */
const dataOf = (b: DuplicateBookmark): number =>
  b.tags.length + (b.note.trim() ? 2 : 0) + (b.hasDescription ? 1 : 0) + (b.collectionId !== null ? 1 : 0) + (b.isFavorite ? 1 : 0) + (b.hasCover ? 1 : 0);

/**
 * The bookmark a group keeps unless the user chooses another: the one with
 * the most data (tags, a note, a description, a collection, a favourite mark,
 * a cover), the oldest on a tie (the API lists a group oldest first), since
 * the oldest is the one other tools and links have known longest.
 */
export function defaultKeep(group: readonly DuplicateBookmark[]): DuplicateBookmark {
  return group.reduce((best, b) => (dataOf(b) > dataOf(best) ? b : best));
}

/** What merging a group into `keep` does: one PATCH of the kept bookmark (null when it already has everything), then the others trashed. */
export interface MergePlan {
  keep: DuplicateBookmark;
  patch: PatchBookmarkBody | null;
  trash: DuplicateBookmark[];
}

/**
 * The others' tags join the kept bookmark's (a tag differing only in case is
 * the same tag, as the API treats it); their notes follow its own, each once,
 * separated by a blank line.
 */
export function mergePlan(group: readonly DuplicateBookmark[], keepId: string): MergePlan {
  const keep = group.find((b) => b.id === keepId) ?? defaultKeep(group);
  const others = group.filter((b) => b.id !== keep.id);
  const tags = [...keep.tags];
  const seen = new Set(tags.map((t) => t.toLowerCase()));
  for (const tag of others.flatMap((b) => b.tags)) {
    if (!seen.has(tag.toLowerCase())) {
      seen.add(tag.toLowerCase());
      tags.push(tag);
    }
  }
  const notes = [keep.note.trim()].filter(Boolean);
  for (const note of others.map((b) => b.note.trim())) if (note && !notes.includes(note)) notes.push(note);
  const note = notes.join('\n\n');
  const patch: PatchBookmarkBody = {
    ...(tags.length > keep.tags.length && { tags }),
    ...(note !== keep.note.trim() && { note }),
  };
  return { keep, patch: Object.keys(patch).length > 0 ? patch : null, trash: others };
}
