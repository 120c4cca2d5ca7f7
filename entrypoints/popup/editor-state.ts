import { addTags, findTag, type KnownTag } from '../../components/tag-suggestions.ts';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import type { Tag } from '../../lib/api/tags.ts';
import type { ClientError } from '../../lib/client/errors.ts';
import { aboutTime } from '../../lib/client/user-text.ts';
import type { MessageOutput } from '../../lib/messaging/protocol.ts';
import { type FormValues, newPageStart, rebase, sameValues, valuesOf, valuesOfBody } from './form.ts';
import type { Kept } from './startup.ts';

export type Mode = { kind: 'create' } | { kind: 'edit'; bookmark: Bookmark } | { kind: 'trashed'; bookmark: Bookmark };
export type Busy = 'save' | 'update' | 'trash' | 'cover';

export interface EditorState {
  mode: Mode;
  values: FormValues;
  /** Typed in the tags field but not yet a chip: a save includes it. */
  tagText: string;
  /** The user changed something since the page was loaded or saved (a restored draft counts). */
  edited: boolean;
  /** The tab's title as the form was first filled with it: a title still equal to it is not the user's edit. */
  tabTitle: string;
  /** The values a draft was restored with, so that showing them is not taken for an edit. */
  restored: FormValues | null;
  /** The saved bookmark's values the restored draft was typed over (null: typed into a form for a new page). */
  draftOver: FormValues | null;
  busy: Busy | null;
  /** What a request in flight carries, to tell whether the user typed on meanwhile. */
  sent: FormValues | null;
  error: Pick<ClientError, 'code' | 'message' | 'retryAfterSeconds'> | null;
  /** What was done, with its mark: ✓ done, ⏳ waiting in the save queue. */
  status: string;
  /** Counts successful saves and updates: each one makes the draft go. */
  saves: number;
  tags: Tag[] | null;
  collections: Collection[] | null;
}

export type EditorAction =
  | { type: 'change'; values: Partial<FormValues> }
  | { type: 'typeTag'; text: string }
  | { type: 'tabKnown'; title: string }
  | { type: 'kept'; kept: KeptValues }
  | { type: 'lookedUp'; bookmark: Bookmark | null }
  | { type: 'tagsLoaded'; tags: Tag[] }
  | { type: 'collectionsLoaded'; collections: Collection[] }
  | { type: 'collectionCreated'; collection: Collection }
  | { type: 'loadFailed'; error: ClientError }
  | { type: 'start'; busy: Busy }
  | { type: 'saved'; bookmark: Bookmark; status: string }
  /** The page's save waits in the queue (its answer, or found there when the popup opened), or was refused for good. */
  | { type: 'queued'; queued: Queued }
  | { type: 'trashed'; bookmark: Bookmark }
  | { type: 'coverRemoved' }
  | { type: 'failed'; error: ClientError };

type Queued = NonNullable<MessageOutput<'lookupUrl'>['queued']>;

/** What the editor takes of what this device kept for the page. */
export interface KeptValues {
  draft: FormValues | null;
  /** The saved bookmark's values the draft was typed over; null for a form for a new page. */
  draftOver: FormValues | null;
  lastCollectionId: string | null;
}

/** Nothing kept, or storage has not answered yet. */
export const NOTHING_KEPT: KeptValues = { draft: null, draftOver: null, lastCollectionId: null };

export const keptValues = ({ draft, lastCollectionId }: Kept): KeptValues => ({ draft: draft && valuesOf(draft), draftOver: draft?.over ?? null, lastCollectionId });

/** The user's edits, typed over `from` (null: a new page's form), made on the saved bookmark as it is now. */
const editsOn = (bookmark: Bookmark, values: FormValues, from: FormValues | null, tabTitle: string): FormValues =>
  rebase(values, from ?? newPageStart(tabTitle, values), valuesOf(bookmark));

export function initialState(start: { title: string } & KeptValues): EditorState {
  return {
    mode: { kind: 'create' },
    values: start.draft ?? { title: start.title, tags: [], collectionId: start.lastCollectionId, note: '', isFavorite: false },
    tagText: '',
    edited: start.draft !== null,
    tabTitle: start.title,
    restored: start.draft,
    draftOver: start.draft && start.draftOver,
    busy: null,
    sent: null,
    error: null,
    status: '',
    saves: 0,
    tags: null,
    collections: null,
  };
}

/** The tags known to exist: the user's list plus those of the bookmark on show (the list may predate its save). */
export function knownTags(state: EditorState): KnownTag[] | null {
  if (state.tags === null) return null;
  const shown = state.mode.kind === 'create' ? [] : state.mode.bookmark.tags;
  const tags = state.tags;
  return [...tags, ...shown.filter((name) => !findTag(tags, name)).map((name) => ({ name, count: 0 }))];
}

/** The values a save sends: the field's typed text becomes a tag. */
export function committed(state: EditorState): FormValues {
  return state.tagText.trim() === '' ? state.values : { ...state.values, tags: addTags(knownTags(state), state.values.tags, [state.tagText]) };
}

/** The last used collection may have been deleted since; a bookmark's own collection is left alone. */
function withoutGoneCollection(state: EditorState): EditorState {
  const { mode, values, collections } = state;
  const gone = collections !== null && mode.kind === 'create' && values.collectionId !== null && !collections.some((c) => c.id === values.collectionId);
  return gone ? { ...state, values: { ...values, collectionId: null } } : state;
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'change':
      return { ...state, values: { ...state.values, ...action.values }, edited: true, status: '' };
    case 'typeTag':
      return { ...state, tagText: action.text, status: '' };
    case 'tabKnown':
      // The tab's title, unless the user or a request got to the form first.
      if (state.edited || state.busy !== null || state.mode.kind !== 'create' || state.values.title !== '') return state;
      return { ...state, values: { ...state.values, title: action.title }, tabTitle: action.title };
    case 'kept': {
      // Kept values come after the first frame: anything the user or a request did meanwhile wins.
      if (state.edited || state.busy !== null || state.saves > 0 || state.mode.kind === 'trashed') return state;
      const { draft, draftOver, lastCollectionId } = action.kept;
      if (draft && state.mode.kind === 'edit') {
        // The bookmark may have changed since the draft was typed (elsewhere, or by an import): only the draft's edits.
        const values = editsOn(state.mode.bookmark, draft, draftOver, state.tabTitle);
        return { ...state, values, edited: !sameValues(values, valuesOf(state.mode.bookmark)), restored: values, draftOver: null };
      }
      if (draft) return withoutGoneCollection({ ...state, values: draft, edited: true, restored: draft, draftOver });
      if (state.mode.kind !== 'create' || lastCollectionId === null) return state;
      return withoutGoneCollection({ ...state, values: { ...state.values, collectionId: lastCollectionId } });
    }
    case 'lookedUp': {
      // Only while nothing was sent: a save's own answer says better what the page now is.
      if (action.bookmark === null || state.mode.kind !== 'create' || state.busy !== null) return state;
      const saved = valuesOf(action.bookmark);
      // Typed (or a draft restored) before the look-up answered: the user's edits, made on the bookmark as it is.
      const values = state.edited ? editsOn(action.bookmark, state.values, state.draftOver, state.tabTitle) : saved;
      return { ...state, mode: { kind: 'edit', bookmark: action.bookmark }, values, edited: !sameValues(values, saved), draftOver: null };
    }
    case 'tagsLoaded':
      return { ...state, tags: action.tags };
    case 'collectionsLoaded': {
      const loaded = action.collections;
      const created = (state.collections ?? []).filter((c) => !loaded.some((l) => l.id === c.id));
      return withoutGoneCollection({ ...state, collections: [...loaded, ...created] });
    }
    case 'collectionCreated':
      return { ...state, collections: [...(state.collections ?? []), action.collection] };
    case 'loadFailed':
      return { ...state, error: state.error ?? action.error };
    case 'start': {
      const values = committed(state);
      return { ...state, values, tagText: '', busy: action.busy, sent: values, error: null, status: '' };
    }
    case 'saved': {
      // What the user typed while the request was out is kept, to be sent with the next Update.
      const typedOn = state.sent !== null && !sameValues(state.values, state.sent);
      return {
        ...state,
        mode: { kind: 'edit', bookmark: action.bookmark },
        values: typedOn ? state.values : valuesOf(action.bookmark),
        edited: typedOn,
        busy: null,
        sent: null,
        status: action.status,
        saves: state.saves + 1,
      };
    }
    case 'queued': {
      const { body, error, refused, waiting, goesInSeconds } = action.queued;
      const answered = state.busy !== null;
      // Found when the popup opened: the form shows the waiting save, unless the user has typed already.
      const values = answered || state.edited ? state.values : valuesOfBody(body);
      // Not a save yet: the draft stays until the server has it. Why it waits (or was refused) shows as an error does.
      const status = refused ? '' : goesInSeconds !== null ? `⏳ Saved to the queue: it goes in about ${aboutTime(goesInSeconds)}` : `⏳ Waiting to be saved${waiting > 1 ? ` (${waiting} waiting)` : ''}`;
      return { ...state, values, busy: null, sent: null, error: error && { ...error, retryAfterSeconds: undefined }, status };
    }
    case 'trashed':
      return { ...state, mode: { kind: 'trashed', bookmark: action.bookmark }, busy: null, sent: null, status: '✓ Moved to trash' };
    case 'coverRemoved':
      if (state.mode.kind !== 'edit') return state;
      return { ...state, mode: { kind: 'edit', bookmark: { ...state.mode.bookmark, coverImage: null } }, busy: null, sent: null, status: '✓ Cover removed' };
    case 'failed':
      return { ...state, busy: null, sent: null, error: action.error };
  }
}
