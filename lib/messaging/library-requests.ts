import * as z from 'zod/mini';
import { BookmarkSort, LinkStatus, MAX_LIST_LIMIT, TagName } from '../api/bookmarks.ts';
import { MAX_BULK } from '../api/bulk.ts';
import { PatchCollectionBody } from '../api/collection-edits.ts';
import { Cursor, Id } from '../api/common.ts';
import { CreateTagBody, MergeTagsBody } from '../api/tag-edits.ts';
import { ExportFormat, MAX_IMPORT_BYTES } from '../api/jobs.ts';
import { CreateSmartFolderBody, PatchSmartFolderBody } from '../api/smart-folders.ts';
import { FindSource } from '../search/find-source.ts';
import { lazySchema } from '../api/lazy-schema.ts';

/** What a list of the library shows: the pages (side panel, options) name it, the background pages through it. */
export const BrowseSource = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('favorites') }),
  z.object({ kind: z.literal('unsorted') }),
  z.object({ kind: z.literal('collection'), id: Id }),
  z.object({ kind: z.literal('tag'), id: Id }),
]));
export type BrowseSource = z.infer<typeof BrowseSource>;

/** One bulk request's action; the ids travel beside it, at most MAX_BULK of them as the API allows. */
export const BulkAction = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('move'), collectionId: z.nullable(Id) }),
  z.object({ type: z.literal('favorite'), isFavorite: z.boolean() }),
  z.object({ type: z.literal('tag'), name: TagName }),
  z.object({ type: z.literal('untag'), tagId: Id }),
  z.object({ type: z.literal('trash') }),
  /** Puts the links first in the server's link-check queue. */
  z.object({ type: z.literal('check') }),
]));
export type BulkAction = z.infer<typeof BulkAction>;

const id = lazySchema(() => z.object({ id: Id }));

/** The most bookmarks Open all opens at once (one page of a collection's list, the API's largest). */
export const MAX_OPEN_ALL = 100;

/** Open all: these bookmarks (a selection), or a collection's, read by the background. */
export const OpenAllRequest = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('bookmarks'),
    bookmarks: z.array(z.object({ id: Id, url: z.string().check(z.minLength(1), z.maxLength(8192)) })).check(z.minLength(1), z.maxLength(MAX_OPEN_ALL)),
  }),
  z.object({ kind: z.literal('collection'), id: Id }),
]));
export type OpenAllRequest = z.infer<typeof OpenAllRequest>;

/** The library messages' inputs (the background checks them); their answers are in library-replies.ts. */
export const libraryRequests = {
  /**
   * Without a cursor, the first page, which the background also keeps (firstPageItem) for the list's next opening
   * when in the default order. A title cursor holds the whole title: the API's own cursor bound.
   */
  browseBookmarks: lazySchema(() => z.object({ source: BrowseSource, sort: z.optional(BookmarkSort), cursor: z.optional(Cursor) })),
  searchBookmarks: lazySchema(() => z.object({
    q: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
    /** How many matches: the API's search has no cursor, so more matches are a larger limit (at most the API's). */
    limit: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_LIST_LIMIT))),
  })),
  /** A search's candidates beyond the API's text search (lib/search/plan.ts). */
  findBookmarks: lazySchema(() => z.object({ source: FindSource })),
  /** The Sites and Overview views. */
  listDomains: lazySchema(() => z.object({})),
  bookmarkStats: lazySchema(() => z.object({})),
  listSmartFolders: lazySchema(() => z.object({ refresh: z.optional(z.boolean()) })),
  smartFolderResults: id,
  evaluateSmartFolder: lazySchema(() => z.object({ id: Id, restart: z.boolean() })),
  bulkBookmarks: lazySchema(() => z.object({ action: BulkAction, ids: z.array(Id).check(z.minLength(1), z.maxLength(MAX_BULK)) })),
  restoreBookmark: id,
  /** The API's duplicate groups: a heavy endpoint, sent only when the budget has room at once. */
  findDuplicates: lazySchema(() => z.object({})),
  /** The groups of the search answered at fetchedAt, from the index `from` on: no request to the server. */
  moreDuplicates: lazySchema(() => z.object({ fetchedAt: z.number(), from: z.number() })),
  /** The user opened a bookmark from Shelf: its clickCount is raised later, with other opens, as background work. */
  bookmarkOpened: id,
  /** Open all, as the tabs of a new window; each open recorded as bookmarkOpened's. */
  openAll: OpenAllRequest,

  // The options page's Collections and Tags sections: each change also refreshes the background's kept list.
  updateCollection: lazySchema(() => z.object({ id: Id, patch: PatchCollectionBody })),
  trashCollection: id,
  restoreCollection: id,
  listTrashedCollections: lazySchema(() => z.object({})),
  /** Moves every active bookmark of a collection to another (or Unsorted): the spec's way to make a large collection deletable. */
  moveCollectionBookmarks: lazySchema(() => z.object({ id: Id, to: z.nullable(Id) })),
  collectionShare: id,
  setCollectionShare: lazySchema(() => z.object({ id: Id, shared: z.boolean() })),
  createTag: CreateTagBody,
  renameTag: lazySchema(() => z.object({ id: Id, newName: TagName })),
  deleteTag: id,
  mergeTags: MergeTagsBody,

  listTrash: lazySchema(() => z.object({ cursor: z.optional(z.string().check(z.maxLength(2048))) })),
  deleteBookmark: id,
  emptyTrash: lazySchema(() => z.object({})),

  // The options page's Broken links section.
  linkStatusCounts: lazySchema(() => z.object({})),
  bookmarksByLinkStatus: lazySchema(() => z.object({ linkStatus: LinkStatus, cursor: z.optional(z.string().check(z.maxLength(2048))) })),

  createSmartFolder: CreateSmartFolderBody,
  updateSmartFolder: lazySchema(() => z.object({ id: Id, patch: PatchSmartFolderBody })),
  deleteSmartFolder: id,

  startExport: lazySchema(() => z.object({ format: ExportFormat })),
  getJob: id,
  downloadExport: id,
  /** An import file's text (every format the server reads is text); the background uploads it and starts the job. */
  startImport: lazySchema(() => z.object({ text: z.string().check(z.minLength(1), z.maxLength(MAX_IMPORT_BYTES)) })),

  /** The options page's Account section: saves another account queued, and giving them up. */
  heldSaves: lazySchema(() => z.object({})),
  discardHeldSaves: lazySchema(() => z.object({ serverUrl: z.string().check(z.minLength(1)), userId: Id })),
};
