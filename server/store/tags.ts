import type { z } from 'zod';
import type * as edits from '../../lib/api/tag-edits.ts';
import type * as api from '../../lib/api/tags.ts';
import type { Tag } from '../../lib/api/tags.ts';

export type MergeResult = z.infer<typeof edits.MergeResult>;
export type TagBookmarks = z.infer<typeof api.TagBookmarks>;
export type TagDeletedResult = z.infer<typeof edits.TagDeletedResult>;

/**
 * Each user's tags: hierarchical names ("a/b") unique regardless of case, every
 * ancestor present. Names given here are already normalised (TagName). Methods
 * throw ApiError (NOT_FOUND for ids the user does not own).
 */
export interface TagsStore {
  /** All tags, ordered by name. */
  list(userId: string): Promise<Tag[]>;
  /** Creates the tag and any missing ancestor; CONFLICT when the name exists. */
  create(userId: string, input: { name: string; color?: string | undefined }, now: number): Promise<Tag>;
  /** Renames the tag and the names of its descendants. */
  rename(userId: string, id: string, newName: string, now: number): Promise<Tag>;
  /** Deletes the tag and its descendants with all their bookmark links. */
  remove(userId: string, id: string, now: number): Promise<TagDeletedResult>;
  /** Gives the source's bookmarks the target, then deletes the (leaf) source. */
  merge(userId: string, sourceId: string, targetId: string, now: number): Promise<MergeResult>;
  /** Active bookmarks carrying the tag, newest first; tag null when there is no such tag. */
  bookmarksById(userId: string, id: string, limit: number): Promise<TagBookmarks>;
  /** As bookmarksById, looking the tag up by name (any case). */
  bookmarksByName(userId: string, name: string, limit: number): Promise<TagBookmarks>;
}
