import type { z } from 'zod';
import type * as api from '../../lib/api/bookmarks.ts';
import type { Bookmark, BookmarkPage, BookmarkType, CreateBookmarkBody, ListBookmarksQuery, PatchBookmarkBody } from '../../lib/api/bookmarks.ts';
import type { Tag } from '../../lib/api/tags.ts';

export type BookmarkStats = z.infer<typeof api.BookmarkStats>;
export type DomainCount = z.infer<typeof api.DomainCount>;
export type DuplicatesResult = z.infer<typeof api.DuplicatesResult>;
export type TrashQuery = z.infer<typeof api.TrashQuery>;

/** The fields of a new bookmark that come from auto-detection (server/bookmarks/detect.ts), supplied values already applied. */
export interface DetectedFields {
  title: string;
  description: string;
  excerpt: string;
  favicon: string;
  type: BookmarkType;
  httpStatusCode: number;
  linkStatus: string;
  metadataStatus: string;
}

export interface SavedBookmark {
  bookmark: Bookmark;
  /** false when a bookmark with exactly this URL existed (active, or restored from the trash). */
  created: boolean;
}

/** ids: the bookmarks named (deduplicated); changed: how many rows the operation actually changed. */
export interface BulkChange {
  ids: string[];
  changed: number;
}

/**
 * Each user's bookmarks. Active means not trashed. Methods throw ApiError:
 * NOT_FOUND for ids the user does not own (bookmarks, collections, tags),
 * CONFLICT for changes to a trashed bookmark. Every change is one transaction.
 */
export interface BookmarksStore {
  /** Active bookmarks, one page by keyset cursor (or the favourites window, see the spec). */
  list(userId: string, query: ListBookmarksQuery): Promise<BookmarkPage>;
  /** Active bookmarks whose title, description or URL contains the text (any case), newest first. */
  search(userId: string, text: string, limit: number): Promise<Bookmark[]>;
  domains(userId: string): Promise<DomainCount[]>;
  stats(userId: string): Promise<BookmarkStats>;
  /** Groups of at least two active bookmarks with the same normalised URL. */
  duplicates(userId: string): Promise<DuplicatesResult>;
  /** Trashed bookmarks, most recently trashed first, by keyset cursor. */
  listTrash(userId: string, query: TrashQuery): Promise<BookmarkPage>;
  /** An active or trashed bookmark. */
  get(userId: string, id: string): Promise<Bookmark>;

  /**
   * "Save this URL" when the user already has it: applies the supplied fields to the
   * active bookmark with exactly this URL, or restores the trashed one and applies them.
   * null when the user has no bookmark with this URL.
   */
  saveExisting(userId: string, input: CreateBookmarkBody, now: number): Promise<Bookmark | null>;
  /** As saveExisting, creating the bookmark from `detected` when the user has none with this URL. */
  save(userId: string, input: CreateBookmarkBody, detected: DetectedFields, now: number): Promise<SavedBookmark>;
  update(userId: string, id: string, patch: PatchBookmarkBody, now: number): Promise<Bookmark>;
  setFavorite(userId: string, id: string, isFavorite: boolean, now: number): Promise<Bookmark>;
  /** collectionId null: Unsorted. */
  move(userId: string, id: string, collectionId: string | null, now: number): Promise<Bookmark>;

  /** Active → trashed; a trashed one is answered unchanged. */
  trash(userId: string, id: string, now: number): Promise<Bookmark>;
  /** Trashed → active (Unsorted when its collection is not active); an active one is answered unchanged. */
  restore(userId: string, id: string, now: number): Promise<Bookmark>;
  /** Removes an active or trashed bookmark with its tag links. */
  deletePermanently(userId: string, id: string): Promise<void>;
  /** Removes all the user's trashed bookmarks; answers how many. */
  emptyTrash(userId: string): Promise<number>;
  /** Removes every user's bookmarks trashed before the cutoff; answers how many. */
  purgeTrashedBefore(cutoff: number): Promise<number>;

  /** The bookmark's tags (active or trashed bookmark), ordered by name. */
  tagsOf(userId: string, id: string): Promise<Tag[]>;
  /** Adds the tag (created with its ancestors when new); answers the bookmark's tags. */
  addTag(userId: string, id: string, name: string, now: number): Promise<Tag[]>;
  /** Removes the link (the tag stays); answers the bookmark's tags. */
  removeTag(userId: string, id: string, tagId: string, now: number): Promise<Tag[]>;

  bulkTrash(userId: string, ids: string[], now: number): Promise<BulkChange>;
  bulkFavorite(userId: string, ids: string[], isFavorite: boolean, now: number): Promise<BulkChange>;
  bulkMove(userId: string, ids: string[], collectionId: string | null, now: number): Promise<BulkChange>;
  bulkTag(userId: string, ids: string[], name: string, now: number): Promise<BulkChange & { tag: Tag }>;
  bulkUntag(userId: string, ids: string[], tagId: string, now: number): Promise<BulkChange>;
}
