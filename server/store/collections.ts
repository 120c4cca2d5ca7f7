import type { z } from 'zod';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type * as edits from '../../lib/api/collection-edits.ts';
import type { PatchCollectionBody } from '../../lib/api/collection-edits.ts';
import type * as api from '../../lib/api/collections.ts';
import type { Collection, CreateCollectionBody } from '../../lib/api/collections.ts';
import type { SerializedJson } from '../http/serialized-json.ts';

export type CollectionTrashResult = z.infer<typeof edits.CollectionTrashResult>;
export type CollectionBookmarksPage = z.infer<typeof api.CollectionBookmarksPage>;
export type ShareState = z.infer<typeof edits.ShareState>;

/** What the public page of a shared collection shows. */
export interface SharedCollection {
  collection: Collection;
  /** Newest first, at most the limit asked for. */
  bookmarks: Bookmark[];
  /** More active bookmarks exist than were read. */
  more: boolean;
}

/**
 * Each user's collection tree. A collection is trashed and restored together with
 * its subtree and their bookmarks. Methods throw ApiError (NOT_FOUND for ids the
 * user does not own).
 */
export interface CollectionsStore {
  /** Active collections, parents before children. */
  list(userId: string): Promise<Collection[]>;
  /** The same, serialized as GET /collections sends it: a user's whole tree, which may be thousands, is not built on the event loop. */
  listSerialized(userId: string): Promise<SerializedJson<Collection[]>>;
  /** Trashed collections, most recently trashed first. */
  listTrashed(userId: string): Promise<Collection[]>;
  /** An active or trashed collection. */
  get(userId: string, id: string): Promise<Collection>;
  create(userId: string, input: CreateCollectionBody, now: number): Promise<Collection>;
  update(userId: string, id: string, patch: PatchCollectionBody, now: number): Promise<Collection>;
  trash(userId: string, id: string, now: number): Promise<CollectionTrashResult>;
  restore(userId: string, id: string, now: number): Promise<CollectionTrashResult>;
  /** Active bookmarks directly in the collection, newest first, by keyset cursor. */
  bookmarks(userId: string, id: string, page: { limit: number; cursor?: string | undefined }): Promise<CollectionBookmarksPage>;
  share(userId: string, id: string): Promise<ShareState>;
  setShared(userId: string, id: string, shared: boolean, now: number): Promise<ShareState>;
  /** The shared, active collection with this slug, or null. */
  shared(slug: string, limit: number): Promise<SharedCollection | null>;
  /** Deletes for good the collections trashed before the cutoff, and their trashed bookmarks. */
  purgeTrashedBefore(cutoff: number): Promise<{ collections: number; bookmarks: number }>;
}
