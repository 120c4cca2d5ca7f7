import * as z from 'zod/mini';
import { CreateBookmarkBody } from '../api/bookmarks.ts';
import { CLIENT_ERROR_CODES } from '../client/errors.ts';
import { SaveEdits } from '../save-edits.ts';
import { typedItem } from './typed-item.ts';
import { lazySchema } from '../api/lazy-schema.ts';

/**
 * What the background keeps for its own work (the token's state, the request
 * budget, the save queue, the sync's progress): apart from items.ts, so that the
 * popup, which loads items.ts, carries none of it.
 */

/** Why the server refused the stored token (401): no call is made with it until the user signs in again. */
export const TokenProblem = lazySchema(() => z.object({ code: z.enum(['MISSING_TOKEN', 'INVALID_TOKEN', 'TOKEN_REVOKED', 'TOKEN_EXPIRED']), message: z.string() }));
export type TokenProblem = z.infer<typeof TokenProblem>;
export const tokenProblemItem = typedItem('local:tokenProblem', z.nullable(TokenProblem), { fallback: null, onInvalid: 'fallback' });

/**
 * The requests the scheduler counted (the account's day, the last minute's send times, each heavy endpoint's
 * minute and any wait the server imposed on it), kept so that a restarted worker goes on counting.
 */
export const spentRequestsItem = typedItem(
  'local:requestDay',
  z.nullable(
    z.object({
      start: z.number(),
      count: z.number(),
      recent: z.optional(z.array(z.number())),
      heavy: z.optional(z.record(z.string(), z.object({ sent: z.array(z.number()), blockedUntil: z.number() }))),
    }),
  ),
  { fallback: null, onInvalid: 'fallback' },
);

/** How far the saved-page sync has come, for the options page. */
export const IndexSyncProgress = lazySchema(() => z.object({
  full: z.boolean(),
  fetched: z.number(),
  /** The library's size when known (a full pass asks for it first). */
  total: z.nullable(z.number()),
  requests: z.number(),
  running: z.boolean(),
}));
export type IndexSyncProgress = z.infer<typeof IndexSyncProgress>;
export const indexSyncItem = typedItem('local:indexSync', z.nullable(IndexSyncProgress), { fallback: null, onInvalid: 'fallback' });

/**
 * A full pass of the sync under way, kept page by page: where the next page starts and what the pass has read.
 * Left behind when the browser stopped the background mid-pass (Firefox unloads an idle event page, even while a
 * request waits for its slot in the minute's budget), so that the next start goes on from there.
 */
export const FullPassState = lazySchema(() => z.object({ cursor: z.string(), entries: z.record(z.string(), z.string()), progress: IndexSyncProgress }));
export type FullPassState = z.infer<typeof FullPassState>;
export const fullPassItem = typedItem('local:indexSyncFullPass', z.nullable(FullPassState), { fallback: null, onInvalid: 'fallback' });

/**
 * The account a queued save belongs to: it is sent only with that account's token. `email` names it to the user
 * while another account is signed in (or none) and its saves wait.
 */
export const SaveOwner = lazySchema(() => z.object({ serverUrl: z.string(), userId: z.string(), email: z.string() }));
export type SaveOwner = z.infer<typeof SaveOwner>;
/** Whether two owners are one account: the same server and user (the email only names it). */
export const sameAccount = (a: Pick<SaveOwner, 'serverUrl' | 'userId'>, b: Pick<SaveOwner, 'serverUrl' | 'userId'>): boolean =>
  a.serverUrl === b.serverUrl && a.userId === b.userId;

/**
 * A save the server has not confirmed: it waits here (surviving the service worker and the browser) and is
 * sent again with the same Idempotency-Key until the server answers it, or kept with the reason it was refused.
 */
export const QueuedSave = lazySchema(() => z.object({
  key: z.string(),
  owner: SaveOwner,
  body: CreateBookmarkBody,
  /** What the user changed in the form: all the save may change should the URL be saved already (absent: nothing). */
  edits: z.optional(SaveEdits),
  queuedAt: z.number(),
  attempts: z.number(),
  nextAttemptAt: z.number(),
  /** Why the last attempt did not save it; for a refused save, why it is kept. */
  error: z.nullable(z.object({ code: z.enum(CLIENT_ERROR_CODES), message: z.string() })),
  /** The server refused it for good (a 4xx a retry cannot fix): kept to be shown, never sent again by itself. */
  refused: z.boolean(),
  /** A quick save (the shortcut, the context menu): should its collection be gone when it goes, it goes to Unsorted. */
  quick: z.optional(z.boolean()),
}));
export type QueuedSave = z.infer<typeof QueuedSave>;
export const saveQueueItem = typedItem('local:saveQueue', z.array(QueuedSave), { fallback: [], onInvalid: 'throw', asText: true });

/**
 * Opens of a bookmark from Shelf not yet added to its clickCount on the server, by account and bookmark id: kept
 * so that a restarted worker still sends them (one request per bookmark, however many opens it holds).
 */
export const PendingOpen = lazySchema(() => z.object({ owner: SaveOwner, id: z.string(), count: z.int().check(z.minimum(1)), firstAt: z.number() }));
export type PendingOpen = z.infer<typeof PendingOpen>;
export const pendingOpensItem = typedItem('local:pendingOpens', z.array(PendingOpen), { fallback: [], onInvalid: 'fallback' });
