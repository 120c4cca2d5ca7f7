import * as z from 'zod/mini';
import { BookmarkType, LinkStatus, MAX_LIST_LIMIT } from '../api/bookmarks.ts';
import { Id } from '../api/common.ts';
import { lazySchema } from '../api/lazy-schema.ts';

/** The API's own filters of GET /bookmarks that a search uses: each narrows the list before any bookmark travels. */
export const ListFilter = lazySchema(() => z.object({
  collectionId: z.optional(Id),
  domain: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
  isFavorite: z.optional(z.literal(true)),
  linkStatus: z.optional(z.array(LinkStatus).check(z.minLength(1))),
  type: z.optional(BookmarkType),
}));
export type ListFilter = z.infer<typeof ListFilter>;

/** What a search asks the background for, besides the API's text search: a filtered page of the list, or a tag's bookmarks. */
export const FindSource = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('list'), filter: ListFilter, cursor: z.optional(z.string().check(z.maxLength(2048))) }),
  z.object({ kind: z.literal('tag'), id: Id }),
]));
export type FindSource = z.infer<typeof FindSource>;

/** The most bookmarks one request answers: GET /bookmarks' limit, and what a tag's list answers at most (it has no cursor). */
export const FIND_PAGE = MAX_LIST_LIMIT;
