import * as z from 'zod/mini';
import { Bookmark, TagName } from './bookmarks.ts';
import { Id, IsoDate, limitParam } from './common.ts';

export const Tag = z.object({
  id: Id,
  name: z.string(),
  color: z.nullable(z.string()),
  parentId: z.nullable(z.string()),
  count: z.number(),
  createdAt: IsoDate,
});
export type Tag = z.infer<typeof Tag>;

export const AddBookmarkTagBody = z.strictObject({ name: TagName });

export const TagBookmarksQuery = z.object({ limit: limitParam(50, 200) });
export const TagBookmarks = z.object({ bookmarks: z.array(Bookmark), tag: z.nullable(Tag) });

