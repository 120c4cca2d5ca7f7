import { z } from 'zod';
import { Bookmark } from './bookmarks.ts';
import { Cursor, Id, IsoDate, limitParam, text } from './common.ts';

export const MAX_COLLECTION_DEPTH = 9;
export const COLLECTION_ROW_LIMIT = 1000;

export const Collection = z.object({
  id: Id,
  name: z.string(),
  icon: z.string(),
  color: z.string(),
  parentId: z.string().nullable(),
  depth: z.number(),
  order: z.number(),
  bookmarkCount: z.number(),
  notes: z.string(),
  branding: z.record(z.string(), z.unknown()).nullable(),
  shareSlug: z.string().nullable(),
  isShared: z.boolean(),
  createdAt: IsoDate,
  // Ours, beyond the spec: optional so that the client also reads servers that only follow the spec.
  deletedAt: IsoDate.nullable().optional(),
});
export type Collection = z.infer<typeof Collection>;

const name = text(200).refine((s) => s.length > 0, 'must not be empty');
const icon = z.string().max(64);
const color = z.string().max(32);

export const CreateCollectionBody = z.object({
  name,
  icon: icon.optional(),
  color: color.optional(),
  parentId: Id.nullable().optional(),
});
export type CreateCollectionBody = z.infer<typeof CreateCollectionBody>;

/** The spec's name, icon, color and notes, plus parentId and order to move a collection in the tree. */
export const PatchCollectionBody = z
  .object({
    name,
    icon,
    color,
    notes: z.string().max(10_000),
    parentId: Id.nullable(),
    order: z.number().int().min(0).max(1_000_000),
  })
  .partial()
  .strict();
export type PatchCollectionBody = z.infer<typeof PatchCollectionBody>;

export const CollectionBookmarksQuery = z.object({ limit: limitParam(50, 100), cursor: Cursor.optional() });
export const CollectionBookmarksPage = z.object({
  bookmarks: z.array(Bookmark),
  continueCursor: z.string().nullable(),
});

export const ShareState = z.object({ shared: z.boolean(), publicUrl: z.string() });
export const ShareBody = z.object({ shared: z.boolean() });

export const CollectionTrashResult = z.object({
  id: Id,
  collections: z.number(),
  bookmarks: z.number(),
});
