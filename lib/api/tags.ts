import * as z from 'zod/mini';
import { Bookmark, TagName } from './bookmarks.ts';
import { Id, IsoDate, limitParam } from './common.ts';
import { lazySchema } from './lazy-schema.ts';

export const Tag = lazySchema(() => z.object({
  id: Id,
  name: z.string(),
  color: z.nullable(z.string()),
  parentId: z.nullable(z.string()),
  count: z.number(),
  createdAt: IsoDate,
}));
export type Tag = z.infer<typeof Tag>;

export const AddBookmarkTagBody = lazySchema(() => z.strictObject({ name: TagName }));

export const TagBookmarksQuery = lazySchema(() => z.object({ limit: limitParam(50, 200) }));
export const TagBookmarks = lazySchema(() => z.object({ bookmarks: z.array(Bookmark), tag: z.nullable(Tag) }));

