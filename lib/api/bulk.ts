import * as z from 'zod/mini';
import { TagName } from './bookmarks.ts';
import { Id } from './common.ts';
import { Tag } from './tags.ts';

export const MAX_BULK = 50;

const ids = z.pipe(
  z.array(Id).check(z.minLength(1, 'must name at least one bookmark'), z.maxLength(MAX_BULK, `must name at most ${MAX_BULK} bookmarks`)),
  z.transform((list: string[]) => [...new Set(list)]),
);

export const BulkIdsBody = z.strictObject({ ids });
export const BulkFavoriteBody = z.strictObject({ ids, isFavorite: z.boolean() });
export const BulkMoveBody = z.strictObject({ ids, collectionId: z.nullable(Id) });
export const BulkTagBody = z.strictObject({ ids, name: TagName });
export const BulkUntagBody = z.strictObject({ ids, tagId: Id });

/** ids: the bookmarks the operation applied to; changed: how many of them it actually changed. */
export const BulkResult = z.object({ ids: z.array(Id), changed: z.number() });
export type BulkResult = z.infer<typeof BulkResult>;
export const BulkTagResult = z.extend(BulkResult, { tag: Tag });
