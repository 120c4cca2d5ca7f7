import type { Bookmark, PatchBookmarkBody } from '../../lib/api/bookmarks.ts';

/** What the Edit dialog lets the user change: every writable field a person edits. */
export interface EditValues {
  title: string;
  url: string;
  description: string;
  note: string;
  tags: string[];
  collectionId: string | null;
  isFavorite: boolean;
}

export const editValuesOf = (b: Bookmark): EditValues => ({
  title: b.title,
  url: b.url,
  description: b.description,
  note: b.note,
  tags: [...b.tags],
  collectionId: b.collectionId,
  isFavorite: b.isFavorite,
});

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * Only what the user changed: a field sent back as it was would still move
 * `updatedAt` and could undo a change made elsewhere meanwhile. Tags travel
 * whole (the API replaces them), and only when they differ.
 */
export function editPatch(before: Bookmark, values: EditValues): PatchBookmarkBody {
  const now = editValuesOf(before);
  const patch: PatchBookmarkBody = {};
  if (values.title.trim() !== now.title) patch.title = values.title.trim();
  if (values.url.trim() !== now.url) patch.url = values.url.trim();
  if (values.description !== now.description) patch.description = values.description;
  if (values.note !== now.note) patch.note = values.note;
  if (!sameTags(values.tags, now.tags)) patch.tags = values.tags;
  if (values.collectionId !== now.collectionId) patch.collectionId = values.collectionId;
  if (values.isFavorite !== now.isFavorite) patch.isFavorite = values.isFavorite;
  return patch;
}
