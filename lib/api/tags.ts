import { z } from 'zod';
import { Bookmark, TagName } from './bookmarks.ts';
import { Id, IsoDate, limitParam } from './common.ts';

export const Tag = z.object({
  id: Id,
  name: z.string(),
  color: z.string().nullable(),
  parentId: z.string().nullable(),
  count: z.number(),
  createdAt: IsoDate,
});
export type Tag = z.infer<typeof Tag>;

export const CreateTagBody = z.object({ name: TagName, color: z.string().max(32).optional() });
export const RenameTagBody = z.object({ newName: TagName });
export const MergeTagsBody = z.object({ sourceTagId: Id, targetTagId: Id });
export const AddBookmarkTagBody = z.object({ name: TagName });

export const TagBookmarksQuery = z.object({ limit: limitParam(50, 200) });
export const TagBookmarks = z.object({ bookmarks: z.array(Bookmark), tag: Tag.nullable() });

export const MergeResult = z.object({ target: Tag, moved: z.number() });
export const TagDeletedResult = z.object({ id: Id, deleted: z.literal(true), tags: z.number() });
