import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { MessageInput } from '../../lib/messaging/protocol.ts';
import { type SaveEdits, patchOfEdits } from '../../lib/save-edits.ts';
import type { Draft } from '../../lib/storage/items.ts';

/** The popup's fields. */
export interface FormValues {
  title: string;
  tags: string[];
  collectionId: string | null;
  note: string;
  isFavorite: boolean;
}

type CreateBody = MessageInput<'saveBookmark'>['bookmark'];
type Patch = MessageInput<'updateBookmark'>['patch'];

export const valuesOf = ({ title, tags, collectionId, note, isFavorite }: FormValues | Bookmark | Draft): FormValues => ({
  title,
  tags: [...tags],
  collectionId,
  note,
  isFavorite,
});

/** A save's body as the form shows it (a queued save, before the server has made it a bookmark). */
export const valuesOfBody = (body: CreateBody): FormValues => valuesOf({ title: '', tags: [], collectionId: null, note: '', isFavorite: false, ...body });

/**
 * The one request that saves a page. No description: the server detects it
 * from the page. An empty title is left out for the same reason.
 */
export function createBody(url: string, values: FormValues): CreateBody {
  const title = values.title.trim();
  return {
    url,
    ...(title !== '' && { title }),
    tags: values.tags,
    collectionId: values.collectionId,
    note: values.note,
    isFavorite: values.isFavorite,
  };
}

const sameTags = (a: readonly string[], b: readonly string[]) => {
  const key = (tags: readonly string[]) => [...new Set(tags.map((t) => t.toLowerCase()))].sort().join('\n');
  return key(a) === key(b);
};

/** Only what differs from the saved bookmark; an emptied title keeps the saved one. */
export function patchOf(values: FormValues, saved: Bookmark): Patch {
  const title = values.title.trim();
  return {
    ...(title !== '' && title !== saved.title && { title }),
    ...(!sameTags(values.tags, saved.tags) && { tags: values.tags }),
    ...(values.collectionId !== saved.collectionId && { collectionId: values.collectionId }),
    ...(values.note !== saved.note && { note: values.note }),
    ...(values.isFavorite !== saved.isFavorite && { isFavorite: values.isFavorite }),
  };
}

export const sameValues = (a: FormValues, b: FormValues): boolean =>
  a.title === b.title && a.collectionId === b.collectionId && a.note === b.note && a.isFavorite === b.isFavorite && a.tags.join('\n') === b.tags.join('\n');

/**
 * What the user changed in the form shown for a new bookmark: all a save may
 * change should the page turn out to be saved already. The title counts when it
 * is no longer the tab's; the collection does not (the form offers the last one
 * used, which says nothing of where this page belongs).
 */
export function editsOf(values: FormValues, tabTitle: string): SaveEdits {
  const title = values.title.trim();
  return {
    ...(title !== '' && title !== tabTitle.trim() && { title }),
    tagsAdded: values.tags,
    ...(values.note !== '' && { note: values.note }),
    ...(values.isFavorite && { isFavorite: true }),
  };
}

/** A saved bookmark's values with the user's edits of a new-bookmark form made on them (see patchOfEdits). */
export const withEdits = (saved: Bookmark, edits: SaveEdits): FormValues => valuesOf({ ...saved, ...patchOfEdits(saved, edits) });
