import * as z from 'zod/mini';
import { CreateBookmarkBody, PatchBookmarkBody } from '../api/bookmarks.ts';
import { CreateCollectionBody } from '../api/collections.ts';
import { Id } from '../api/common.ts';
import { SaveEdits } from '../save-edits.ts';
import { libraryRequests } from './library-requests.ts';
import type { MessageName } from './protocol.ts';
import { lazySchema } from '../api/lazy-schema.ts';

const nothing = lazySchema(() => z.object({}));
const cached = lazySchema(() => z.object({ refresh: z.optional(z.boolean()) }));

/** What each message carries: the background checks every message with these before acting on it. */
export const requests = {
  getAccount: nothing,
  signIn: lazySchema(() => z.object({
    serverUrl: z.string().check(z.trim(), z.minLength(1)),
    token: z.string().check(z.trim()),
    /** The user agreed to send the token over plain http to a server that is not local. */
    allowInsecure: z.optional(z.boolean()),
  })),
  signOut: nothing,

  lookupUrl: lazySchema(() => z.object({ url: z.string() })),
  /**
   * `edits`: what the user changed in the form, all a save may change should the URL turn out to be saved already.
   * `tabId`: the tab showing the page, from which a new bookmark gets its automatic cover.
   */
  saveBookmark: lazySchema(() => z.object({ bookmark: CreateBookmarkBody, edits: z.optional(SaveEdits), tabId: z.optional(z.int().check(z.nonnegative())) })),
  updateBookmark: lazySchema(() => z.object({ id: Id, patch: PatchBookmarkBody })),
  trashBookmark: lazySchema(() => z.object({ id: Id })),
  /** Every web page of a window (the current one when not given) into one collection with the same tags. */
  saveAllTabs: lazySchema(() => z.extend(z.pick(CreateBookmarkBody, { collectionId: true, tags: true }), { windowId: z.optional(z.int()) })),
  removeCover: lazySchema(() => z.object({ id: Id })),

  listTags: cached,
  listCollections: cached,
  createCollection: CreateCollectionBody,

  ...libraryRequests,
} as const satisfies Record<MessageName, z.ZodMiniType>;
