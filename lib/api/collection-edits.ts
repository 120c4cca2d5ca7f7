import * as z from 'zod/mini';
import { collectionFields } from './collections.ts';
import { Id } from './common.ts';
import { lazySchema } from './lazy-schema.ts';

// Apart from collections.ts: the popup loads that module, and these only the options page and the background need.

/** The spec's name, icon, color and notes, plus parentId and order to move a collection in the tree. */
export const PatchCollectionBody = lazySchema(() => z.partial(
  z.strictObject({
    ...collectionFields,
    notes: z.string().check(z.maxLength(10_000)),
    parentId: z.nullable(Id),
    order: z.number().check(z.int(), z.minimum(0), z.maximum(1_000_000)),
  }),
));
export type PatchCollectionBody = z.infer<typeof PatchCollectionBody>;

export const ShareState = lazySchema(() => z.object({ shared: z.boolean(), publicUrl: z.string() }));

export const ShareBody = lazySchema(() => z.strictObject({ shared: z.boolean() }));

export const CollectionTrashResult = lazySchema(() => z.object({
  id: Id,
  collections: z.number(),
  bookmarks: z.number(),
}));
