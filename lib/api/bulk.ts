import * as z from 'zod/mini';
import { TagName } from './bookmarks.ts';
import { Id } from './common.ts';
import { Tag } from './tags.ts';
import { lazySchema } from './lazy-schema.ts';

export const MAX_BULK = 50;

const ids = lazySchema(() => z.pipe(
  z.array(Id).check(z.minLength(1, 'must name at least one bookmark'), z.maxLength(MAX_BULK, `must name at most ${MAX_BULK} bookmarks`)),
  z.transform((list: string[]) => [...new Set(list)]),
));

export const BulkIdsBody = lazySchema(() => z.strictObject({ ids }));
export const BulkFavoriteBody = lazySchema(() => z.strictObject({ ids, isFavorite: z.boolean() }));
export const BulkMoveBody = lazySchema(() => z.strictObject({ ids, collectionId: z.nullable(Id) }));
export const BulkTagBody = lazySchema(() => z.strictObject({ ids, name: TagName }));
export const BulkUntagBody = lazySchema(() => z.strictObject({ ids, tagId: Id }));

/** ids: the bookmarks the operation applied to; changed: how many of them it actually changed. */
export const BulkResult = lazySchema(() => z.object({ ids: z.array(Id), changed: z.number() }));
export type BulkResult = z.infer<typeof BulkResult>;
export const BulkTagResult = lazySchema(() => z.extend(BulkResult, { tag: Tag }));
