import * as z from 'zod/mini';
import type { Bookmark, PatchBookmarkBody } from './api/bookmarks.ts';

/**
 * What the user changed in a form shown for a new bookmark (a popup that did not
 * know the page was saved, a quick save: nothing). When the URL turns out to be
 * saved already, these are the only changes its bookmark gets: a POST of the URL
 * would replace its title, tags and collection with the form's.
 */
export const SaveEdits = z.object({
  title: z.optional(z.string()),
  /** A new form starts with no tags: the user can only add. */
  tagsAdded: z.array(z.string()),
  collectionId: z.optional(z.nullable(z.string())),
  note: z.optional(z.string()),
  isFavorite: z.optional(z.boolean()),
});
export type SaveEdits = z.infer<typeof SaveEdits>;

export const NO_EDITS: SaveEdits = { tagsAdded: [] };

const hasTag = (tags: readonly string[], name: string) => tags.some((t) => t.toLowerCase() === name.toLowerCase());

/** The PATCH that makes the user's edits to a bookmark already saved, and nothing else; empty when they change nothing. */
export function patchOfEdits(saved: Pick<Bookmark, 'title' | 'tags' | 'collectionId' | 'note' | 'isFavorite'>, edits: SaveEdits): PatchBookmarkBody {
  const title = edits.title?.trim() ?? '';
  const added = edits.tagsAdded.filter((name, i) => !hasTag(saved.tags, name) && !hasTag(edits.tagsAdded.slice(0, i), name));
  return {
    ...(title !== '' && title !== saved.title && { title }),
    ...(added.length > 0 && { tags: [...saved.tags, ...added] }),
    ...(edits.collectionId !== undefined && edits.collectionId !== saved.collectionId && { collectionId: edits.collectionId }),
    ...(edits.note !== undefined && edits.note !== saved.note && { note: edits.note }),
    ...(edits.isFavorite !== undefined && edits.isFavorite !== saved.isFavorite && { isFavorite: edits.isFavorite }),
  };
}
