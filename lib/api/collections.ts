import * as z from 'zod/mini';
import { Bookmark } from './bookmarks.ts';
import { Color } from './color.ts';
import { Cursor, Id, IsoDate, limitParam, text } from './common.ts';
import { MAX_COLLECTION_NAME_LENGTH } from './collection-name.ts';
import { lazySchema } from './lazy-schema.ts';

export const MAX_COLLECTION_DEPTH = 9;
/** Collections of one user, trashed ones included (docs/api-decisions.md, Collections: how many). */
export const MAX_COLLECTIONS_PER_USER = 10_000;
export const COLLECTION_ROW_LIMIT = 1000;

export const Collection = lazySchema(() => z.object({
  id: Id,
  name: z.string(),
  icon: z.string(),
  color: z.string(),
  parentId: z.nullable(z.string()),
  depth: z.number(),
  order: z.number(),
  bookmarkCount: z.number(),
  notes: z.string(),
  // Any object: as a loose object, not a record, so that the popup that reads collections bundles no zod record (2.3 kB).
  branding: z.nullable(z.looseObject({})),
  shareSlug: z.nullable(z.string()),
  isShared: z.boolean(),
  createdAt: IsoDate,
  // Ours, beyond the spec: optional so that the client also reads servers that only follow the spec.
  deletedAt: z.optional(z.nullable(IsoDate)),
}));
export type Collection = z.infer<typeof Collection>;

const name = lazySchema(() => text(MAX_COLLECTION_NAME_LENGTH).check(z.refine((s) => s.length > 0, 'must not be empty')));
const icon = lazySchema(() => z.string().check(z.maxLength(64)));
/** The fields a collection is created with, also the ones a PATCH changes (collection-edits.ts). */
export const collectionFields = { name, icon, color: Color };

export const CreateCollectionBody = lazySchema(() => z.strictObject({
  name,
  icon: z.optional(icon),
  color: z.optional(Color),
  parentId: z.optional(z.nullable(Id)),
}));
export type CreateCollectionBody = z.infer<typeof CreateCollectionBody>;

export const CollectionBookmarksQuery = lazySchema(() => z.object({ limit: limitParam(50, 100), cursor: z.optional(Cursor) }));
export const CollectionBookmarksPage = lazySchema(() => z.object({
  bookmarks: z.array(Bookmark),
  continueCursor: z.nullable(z.string()),
}));

