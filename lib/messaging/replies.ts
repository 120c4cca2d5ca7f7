import * as z from 'zod/mini';
import { VerifiedUser } from '../api/auth.ts';
import { Bookmark, CheckedCreateBookmarkBody } from '../api/bookmarks.ts';
import { CLIENT_ERROR_CODES } from '../client/errors.ts';
import { Collection } from '../api/collections.ts';
import { SuccessResult } from '../api/common.ts';
import { Scope } from '../api/scopes.ts';
import { Tag } from '../api/tags.ts';
import { SaveAllProgress } from '../storage/save-all-items.ts';
import { lazySchema } from '../api/lazy-schema.ts';

export const AccountState = lazySchema(() => z.object({
  serverUrl: z.string(),
  signedIn: z.boolean(),
  user: z.nullable(VerifiedUser),
  /** What the token may do; null when signed out or when the server does not say. Pages offer only what it allows. */
  scopes: z.nullable(z.array(Scope)),
  /** Set when the server refused the token: Shelf has stopped calling it and asks the user to sign in again. */
  tokenProblem: z.nullable(z.object({ code: z.enum(CLIENT_ERROR_CODES), message: z.string() })),
}));

/** A save the server has not confirmed yet (or refused for good), as the pages show it. */
export const QueuedSaveInfo = lazySchema(() => z.object({
  body: CheckedCreateBookmarkBody,
  /** Why it is not saved yet; for a refused one, why it never will be as it is. */
  error: z.nullable(z.object({ code: z.enum(CLIENT_ERROR_CODES), message: z.string() })),
  refused: z.boolean(),
  /** How many saves wait in all (refused ones not counted). */
  waiting: z.number(),
  /** For a save held back only by the extension's own request budget: about how long until it goes; null otherwise. */
  goesInSeconds: z.nullable(z.number()),
}));

/** A page's bookmark and its save waiting in the queue: one shape for a lookup and a save. */
export const PageSave = lazySchema(() => z.object({ bookmark: z.nullable(Bookmark), queued: z.nullable(QueuedSaveInfo) }));

/**
 * What the background answers each message with: the UI parses every answer
 * with these. Apart from requests.ts, so that the UI's bundle holds only them.
 */
export const replies = {
  getAccount: AccountState,
  signIn: AccountState,
  signOut: AccountState,

  /** The saved bookmark for a page, from the local index (and one GET when it is saved), and its save waiting in the queue. */
  lookupUrl: PageSave,
  /**
   * The saved bookmark, or (bookmark null) the save as it waits in the queue when the server could not take it.
   * `existed`: the URL was saved already, and only the user's edits were made to its bookmark.
   */
  // Spread, not z.extend: the popup bundles no extend of zod's for this alone.
  saveBookmark: lazySchema(() => z.object({ ...PageSave.shape, existed: z.optional(z.boolean()) })),
  updateBookmark: Bookmark,
  trashBookmark: Bookmark,
  /** How it ended (the popup follows it meanwhile through saveAllTabsItem). */
  saveAllTabs: SaveAllProgress,
  removeCover: SuccessResult,

  listTags: lazySchema(() => z.array(Tag)),
  listCollections: lazySchema(() => z.array(Collection)),
  createCollection: Collection,
} as const;
