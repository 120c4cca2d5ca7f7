import * as z from 'zod/mini';
import { VerifiedUser } from '../api/auth.ts';
import { Scope } from '../api/scopes.ts';
import { Collection } from '../api/collections.ts';
import { Tag } from '../api/tags.ts';
import { DEFAULT_SERVER_URL } from '../messaging/protocol.ts';
import { COLLECTIONS_CACHE_KEY, TAGS_CACHE_KEY } from './opening-keys.ts';
import { typedItem } from './typed-item.ts';
import { lazySchema } from '../api/lazy-schema.ts';

/** Every stored item of the extension, in one place. All in local storage: nothing syncs, the token least of all. */

/** Read only by the background service worker. */
export const tokenItem = typedItem('local:token', z.nullable(z.string()), { fallback: null, onInvalid: 'throw' });

export const Settings = lazySchema(() => z.object({ serverUrl: z.string() }));
export const settingsItem = typedItem('local:settings', Settings, { fallback: { serverUrl: DEFAULT_SERVER_URL }, onInvalid: 'throw' });

export const userItem = typedItem('local:user', z.nullable(VerifiedUser), { fallback: null, onInvalid: 'fallback' });

/**
 * What the signed-in token may do, from GET /auth/verify; null until known. Its
 * scopes are null when the server does not say (the spec leaves that answer's shape open).
 */
export const Grant = lazySchema(() => z.object({ scopes: z.nullable(z.array(Scope)), expiresAt: z.nullable(z.string()) }));
export type Grant = z.infer<typeof Grant>;
export const grantItem = typedItem('local:grant', z.nullable(Grant), { fallback: null, onInvalid: 'fallback' });

/** Normalised URL → bookmark id, for the toolbar icon and the popup, without asking the server per page. */
export const SavedIndex = lazySchema(() => z.object({
  entries: z.record(z.string(), z.string()),
  syncedAt: z.nullable(z.number()),
  /** The last pass over the whole library (which alone sees deletions and changes made elsewhere). */
  fullSyncedAt: z.optional(z.nullable(z.number())),
  /** Bookmarks the last full pass found under a URL another one already held: with the entries' ids, what the library should hold. */
  shadowed: z.optional(z.number()),
}));
export type SavedIndex = z.infer<typeof SavedIndex>;
export const savedIndexItem = typedItem('local:savedIndex', SavedIndex, { fallback: { entries: {}, syncedAt: null }, onInvalid: 'fallback', asText: true });

const cache = <S extends z.ZodMiniType>(item: S) => z.object({ items: z.array(item), fetchedAt: z.number() });
export const tagsCacheItem = typedItem(TAGS_CACHE_KEY, z.nullable(cache(Tag)), { fallback: null, onInvalid: 'fallback', asText: true });
export const collectionsCacheItem = typedItem(COLLECTIONS_CACHE_KEY, z.nullable(cache(Collection)), { fallback: null, onInvalid: 'fallback', asText: true });

export const lastCollectionItem = typedItem('local:lastCollectionId', z.nullable(z.string()), { fallback: null, onInvalid: 'fallback' });

/**
 * Where the keyboard shortcut and the context menu save a page (options page, Quick saves). Unsorted by
 * default: a page saved without a look lands nowhere the user did not choose. A collection that is gone
 * by the time of the save gives way to Unsorted.
 */
// A plain union, not a discriminated one, which the popup would bundle for this alone (1.6 kB).
export const QuickSaveTarget = lazySchema(() => z.union([
  z.object({ kind: z.literal('unsorted') }),
  z.object({ kind: z.literal('last') }),
  z.object({ kind: z.literal('collection'), collectionId: z.string() }),
]));
export type QuickSaveTarget = z.infer<typeof QuickSaveTarget>;
export const quickSaveTargetItem = typedItem('local:quickSaveTarget', QuickSaveTarget, { fallback: { kind: 'unsorted' }, onInvalid: 'fallback' });

/** What the user typed in the popup for a page, kept until it is saved. Keyed by normalised URL. */
const DraftValues = lazySchema(() => z.object({
  title: z.string(),
  tags: z.array(z.string()),
  collectionId: z.nullable(z.string()),
  note: z.string(),
  isFavorite: z.boolean(),
}));
export const Draft = lazySchema(() => z.object({
  ...DraftValues.shape,
  updatedAt: z.number(),
  /**
   * The saved bookmark's values the draft was typed over (absent: a form for a new page). Restored on a bookmark that
   * changed since, only the draft's own edits are made, never the whole draft over what changed elsewhere.
   */
  over: z.optional(z.nullable(DraftValues)),
}));
export type Draft = z.infer<typeof Draft>;
// Drafts by key: an object whose every key holds a draft, as a record (z.record) would be, without a zod record in the popup.
export const draftsItem = typedItem('local:drafts', z.catchall(z.object({}), Draft), { fallback: {}, onInvalid: 'fallback' });


/**
 * Whether Set as cover image keeps the access to an image's site that it asked for. Off by default: the
 * access is given back once the image is read, and the options page (Site access) lets the user change that.
 */
export const keepCoverSiteAccessItem = typedItem('local:keepCoverSiteAccess', z.boolean(), { fallback: false, onInvalid: 'fallback' });
