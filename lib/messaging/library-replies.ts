import * as z from 'zod/mini';
import { Bookmark, BookmarkStats, DomainCount, DuplicateGroup, LinkStatusCount } from '../api/bookmarks.ts';
import { BulkResult } from '../api/bulk.ts';
import { CollectionTrashResult, ShareState } from '../api/collection-edits.ts';
import { Collection } from '../api/collections.ts';
import { SuccessResult } from '../api/common.ts';
import { Job, JobCreated } from '../api/jobs.ts';
import { SmartFolder } from '../api/smart-folders.ts';
import { MergeResult, TagDeletedResult } from '../api/tag-edits.ts';
import { Tag } from '../api/tags.ts';
import { SaveOwner } from '../storage/background-items.ts';
import { lazySchema } from '../api/lazy-schema.ts';

/** A page of a library list; `cursor` null when there is no more, `limitNote` when the API shows only part of it. */
export const BrowsePage = lazySchema(() => z.object({
  bookmarks: z.array(Bookmark),
  cursor: z.nullable(z.string()),
  limitNote: z.nullable(z.string()),
  /** Read from the kept copy (firstPageItem), not the server: the page asks the server's once shown. */
  kept: z.optional(z.boolean()),
}));
export type BrowsePage = z.infer<typeof BrowsePage>;

/**
 * A smart folder's matches as the extension keeps them: evaluation is a heavy
 * endpoint (two a minute for all folders together), so results are stored and
 * refreshed only when the budget allows.
 */
export const SmartFolderView = lazySchema(() => z.object({
  folderId: z.string(),
  bookmarks: z.array(Bookmark),
  /** The server said it stopped early: more than 500 matches, or the scan bound was reached. */
  truncated: z.boolean(),
  /** False while an evaluation is under way: more pages are to be fetched. */
  complete: z.boolean(),
  /** When the shown results were fetched; null before the first evaluation finished. */
  fetchedAt: z.nullable(z.number()),
  /** Evaluation requests sent for the shown results (or the pass under way). */
  pages: z.number(),
  /** When the next evaluation request may be sent (epoch ms); null: now. */
  nextEvaluationAt: z.nullable(z.number()),
}));
export type SmartFolderView = z.infer<typeof SmartFolderView>;

/**
 * A duplicate search's first groups (those the first screen shows), how many it found, when, and when the next
 * search may be sent (epoch ms; null: now). The rest follow with moreDuplicates once the first screen is shown:
 * Chromium copies a message field by field, about 0.1-0.2 s for all 500 groups (436 kB), which the first screen
 * need not wait for.
 */
export const DuplicatesView = lazySchema(() => z.object({ groups: z.array(DuplicateGroup), total: z.number(), fetchedAt: z.number(), nextCheckAt: z.nullable(z.number()) }));
export type DuplicatesView = z.infer<typeof DuplicatesView>;

/** A finished export as the page saves it: the server's file name and type, and its text. */
export const ExportFile = lazySchema(() => z.object({ fileName: z.string(), type: z.string(), text: z.string() }));
export type ExportFile = z.infer<typeof ExportFile>;

/**
 * How many bookmarks emptying the trash deleted. The API's own schemas for the
 * trash live in bookmarks.ts, which the popup loads: using them here would put
 * them in the popup's chunks, so the trash's answers travel in these shapes.
 */
export const EmptiedTrash = lazySchema(() => z.object({ deleted: z.number() }));

/** Saves queued by accounts other than the signed-in one, by account: they wait for it, or for the user to discard them. */
export const HeldSaves = lazySchema(() => z.array(z.object({ owner: SaveOwner, count: z.number() })));

/** Open all's window: how many tabs it has, and whether the collection has more than were opened. */
export const OpenAllReply = lazySchema(() => z.object({ opened: z.number(), more: z.boolean() }));
export type OpenAllReply = z.infer<typeof OpenAllReply>;

/** What the background answers each library message with; only the library pages load these (the popup does not). */
export const libraryReplies = {
  browseBookmarks: BrowsePage,
  searchBookmarks: lazySchema(() => z.array(Bookmark)),
  findBookmarks: BrowsePage,
  listDomains: lazySchema(() => z.array(DomainCount)),
  bookmarkStats: BookmarkStats,
  listSmartFolders: lazySchema(() => z.array(SmartFolder)),
  smartFolderResults: SmartFolderView,
  evaluateSmartFolder: SmartFolderView,
  bulkBookmarks: BulkResult,
  restoreBookmark: Bookmark,
  findDuplicates: DuplicatesView,
  moreDuplicates: lazySchema(() => z.array(DuplicateGroup)),
  bookmarkOpened: lazySchema(() => z.object({})),
  openAll: OpenAllReply,

  updateCollection: Collection,
  trashCollection: CollectionTrashResult,
  restoreCollection: CollectionTrashResult,
  listTrashedCollections: lazySchema(() => z.array(Collection)),
  /** How many bookmarks were moved. */
  moveCollectionBookmarks: lazySchema(() => z.object({ moved: z.number() })),
  /** `publicUrl` absolute: the server's origin with the API's path, ready to copy. */
  collectionShare: ShareState,
  setCollectionShare: ShareState,
  createTag: Tag,
  renameTag: Tag,
  deleteTag: TagDeletedResult,
  mergeTags: MergeResult,

  listTrash: BrowsePage,
  deleteBookmark: SuccessResult,
  emptyTrash: EmptiedTrash,

  linkStatusCounts: lazySchema(() => z.array(LinkStatusCount)),
  bookmarksByLinkStatus: BrowsePage,

  createSmartFolder: SmartFolder,
  updateSmartFolder: SmartFolder,
  deleteSmartFolder: SuccessResult,

  startExport: JobCreated,
  getJob: Job,
  downloadExport: ExportFile,
  startImport: Job,

  heldSaves: HeldSaves,
  discardHeldSaves: HeldSaves,
} as const;
