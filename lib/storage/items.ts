import * as z from 'zod/mini';
import { VerifiedUser } from '../api/auth.ts';
import { CreateBookmarkBody } from '../api/bookmarks.ts';
import { CLIENT_ERROR_CODES } from '../client/errors.ts';
import { Scope } from '../api/scopes.ts';
import { Collection } from '../api/collections.ts';
import { Tag } from '../api/tags.ts';
import { DEFAULT_SERVER_URL } from '../messaging/protocol.ts';
import { typedItem } from './typed-item.ts';

/** Every stored item of the extension, in one place. All in local storage: nothing syncs, the token least of all. */

/** Read only by the background service worker. */
export const tokenItem = typedItem('local:token', z.nullable(z.string()), { fallback: null, onInvalid: 'throw' });

export const Settings = z.object({ serverUrl: z.string() });
export const settingsItem = typedItem('local:settings', Settings, { fallback: { serverUrl: DEFAULT_SERVER_URL }, onInvalid: 'throw' });

export const userItem = typedItem('local:user', z.nullable(VerifiedUser), { fallback: null, onInvalid: 'fallback' });

/**
 * What the signed-in token may do, from GET /auth/verify; null until known. Its
 * scopes are null when the server does not say (the spec leaves that answer's shape open).
 */
export const Grant = z.object({ scopes: z.nullable(z.array(Scope)), expiresAt: z.nullable(z.string()) });
export type Grant = z.infer<typeof Grant>;
export const grantItem = typedItem('local:grant', z.nullable(Grant), { fallback: null, onInvalid: 'fallback' });

/** Why the server refused the stored token (401): no call is made with it until the user signs in again. */
export const TokenProblem = z.object({ code: z.enum(['MISSING_TOKEN', 'INVALID_TOKEN', 'TOKEN_REVOKED', 'TOKEN_EXPIRED']), message: z.string() });
export type TokenProblem = z.infer<typeof TokenProblem>;
export const tokenProblemItem = typedItem('local:tokenProblem', z.nullable(TokenProblem), { fallback: null, onInvalid: 'fallback' });

/** The account's day of requests as the scheduler counts it, kept so that a restarted service worker goes on counting. */
export const requestDayItem = typedItem('local:requestDay', z.nullable(z.object({ start: z.number(), count: z.number() })), {
  fallback: null,
  onInvalid: 'fallback',
});

/** Normalised URL → bookmark id, for the toolbar icon and the popup, without asking the server per page. */
export const SavedIndex = z.object({
  entries: z.record(z.string(), z.string()),
  syncedAt: z.nullable(z.number()),
  /** The last pass over the whole library (which alone sees deletions and changes made elsewhere). */
  fullSyncedAt: z.optional(z.nullable(z.number())),
});
export type SavedIndex = z.infer<typeof SavedIndex>;
export const savedIndexItem = typedItem('local:savedIndex', SavedIndex, { fallback: { entries: {}, syncedAt: null }, onInvalid: 'fallback' });

/** How far the saved-page sync has come, for the options page. */
export const IndexSyncProgress = z.object({
  full: z.boolean(),
  fetched: z.number(),
  /** The library's size when known (a full pass asks for it first). */
  total: z.nullable(z.number()),
  requests: z.number(),
  running: z.boolean(),
});
export type IndexSyncProgress = z.infer<typeof IndexSyncProgress>;
export const indexSyncItem = typedItem('local:indexSync', z.nullable(IndexSyncProgress), { fallback: null, onInvalid: 'fallback' });

const cache = <S extends z.ZodMiniType>(item: S) => z.object({ items: z.array(item), fetchedAt: z.number() });
export const tagsCacheItem = typedItem('local:tagsCache', z.nullable(cache(Tag)), { fallback: null, onInvalid: 'fallback' });
export const collectionsCacheItem = typedItem('local:collectionsCache', z.nullable(cache(Collection)), { fallback: null, onInvalid: 'fallback' });

export const lastCollectionItem = typedItem('local:lastCollectionId', z.nullable(z.string()), { fallback: null, onInvalid: 'fallback' });

/** What the user typed in the popup for a page, kept until it is saved. Keyed by normalised URL. */
export const Draft = z.object({
  title: z.string(),
  tags: z.array(z.string()),
  collectionId: z.nullable(z.string()),
  note: z.string(),
  isFavorite: z.boolean(),
  updatedAt: z.number(),
});
export type Draft = z.infer<typeof Draft>;
export const draftsItem = typedItem('local:drafts', z.record(z.string(), Draft), { fallback: {}, onInvalid: 'fallback' });

/**
 * A save the server has not confirmed: it waits here (surviving the service worker and the browser) and is
 * sent again with the same Idempotency-Key until the server answers it, or kept with the reason it was refused.
 */
export const QueuedSave = z.object({
  key: z.string(),
  body: CreateBookmarkBody,
  queuedAt: z.number(),
  attempts: z.number(),
  nextAttemptAt: z.number(),
  /** Why the last attempt did not save it; for a refused save, why it is kept. */
  error: z.nullable(z.object({ code: z.enum(CLIENT_ERROR_CODES), message: z.string() })),
  /** The server refused it for good (a 4xx a retry cannot fix): kept to be shown, never sent again by itself. */
  refused: z.boolean(),
});
export type QueuedSave = z.infer<typeof QueuedSave>;
export const saveQueueItem = typedItem('local:saveQueue', z.array(QueuedSave), { fallback: [], onInvalid: 'throw' });
