import * as z from 'zod/mini';
import { VerifiedUser } from '../api/auth.ts';
import { Bookmark, CreateBookmarkBody, PatchBookmarkBody } from '../api/bookmarks.ts';
import { Collection, CreateCollectionBody } from '../api/collections.ts';
import { Id } from '../api/common.ts';
import { Tag } from '../api/tags.ts';

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8787/v1';

export const AccountState = z.object({
  serverUrl: z.string(),
  signedIn: z.boolean(),
  user: z.nullable(VerifiedUser),
});
export type AccountState = z.infer<typeof AccountState>;

const nothing = z.object({});

/**
 * Every message the UI may send the background, with what it answers. The
 * background is the only code holding the token and calling the API.
 */
export const protocol = {
  getAccount: { input: nothing, output: AccountState },
  signIn: { input: z.object({ serverUrl: z.string().check(z.trim(), z.minLength(1)), token: z.string().check(z.trim()) }), output: AccountState },
  signOut: { input: nothing, output: AccountState },

  /** The saved bookmark for a page, from the local index (and one GET when it is saved). */
  lookupUrl: { input: z.object({ url: z.string() }), output: z.object({ bookmark: z.nullable(Bookmark) }) },
  saveBookmark: { input: z.object({ bookmark: CreateBookmarkBody }), output: Bookmark },
  updateBookmark: { input: z.object({ id: Id, patch: PatchBookmarkBody }), output: Bookmark },
  trashBookmark: { input: z.object({ id: Id }), output: Bookmark },

  listTags: { input: z.object({ refresh: z.optional(z.boolean()) }), output: z.array(Tag) },
  listCollections: { input: z.object({ refresh: z.optional(z.boolean()) }), output: z.array(Collection) },
  createCollection: { input: CreateCollectionBody, output: Collection },
} as const;

export type Protocol = typeof protocol;
export type MessageName = keyof Protocol;
export type MessageInput<N extends MessageName> = z.input<Protocol[N]['input']>;
export type MessageOutput<N extends MessageName> = z.output<Protocol[N]['output']>;
export type Handlers = {
  [N in MessageName]: (input: z.output<Protocol[N]['input']>) => Promise<MessageOutput<N>>;
};
