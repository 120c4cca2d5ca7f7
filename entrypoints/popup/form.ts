import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { MessageInput } from '../../lib/messaging/protocol.ts';
import type { SaveEdits } from '../../lib/save-edits.ts';
import type { Draft } from '../../lib/storage/items.ts';
import { hasTag } from '../../components/tag-suggestions.ts';

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

/**
 * What a form for a new page started from: the tab's title, no tags, no note, not a favourite. Its collection is
 * never taken for an edit (see editsOf): it counts as unchanged, whatever the form shows.
 */
export const newPageStart = (tabTitle: string, typed: FormValues): FormValues => ({ title: tabTitle, tags: [], collectionId: typed.collectionId, note: '', isFavorite: false });

/**
 * The user's changes from `from` to `to`, made on `onto` (the bookmark as it is now): a field the user left alone
 * takes `onto`'s value; tags are what the user added and removed, so that a tag added elsewhere meanwhile stays.
 */
export function rebase(to: FormValues, from: FormValues, onto: FormValues): FormValues {
  const removed = from.tags.filter((name) => !hasTag(to.tags, name));
  const added = to.tags.filter((name) => !hasTag(from.tags, name));
  const pick = <K extends keyof FormValues>(key: K): FormValues[K] => (to[key] === from[key] ? onto[key] : to[key]);
  return {
    title: to.title.trim() === from.title.trim() ? onto.title : to.title,
    tags: [...onto.tags.filter((name) => !hasTag(removed, name)), ...added.filter((name) => !hasTag(onto.tags, name))],
    collectionId: pick('collectionId'),
    note: pick('note'),
    isFavorite: pick('isFavorite'),
  };
}
