import { z } from 'zod';
import { Bookmark, BookmarkType } from './bookmarks.ts';
import { Cursor, Id, IsoDate, text } from './common.ts';

export const MAX_CONDITIONS = 10;

const msString = z.string().regex(/^\d{1,15}$/, 'must be milliseconds since epoch, as a string of digits');
const countString = z.string().regex(/^\d{1,9}$/, 'must be a whole number, as a string of digits');

/** lowercase, and scheme, www., port and path stripped: "https://WWW.Example.com/a" → "example.com". */
export function normaliseDomain(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^www\./, '');
}

const domainValue = z
  .string()
  .max(255)
  .transform(normaliseDomain)
  .refine((d) => d.length > 0, 'must name a domain');

export const Condition = z.discriminatedUnion('field', [
  z.object({ field: z.literal('tag'), operator: z.enum(['equals', 'contains']), value: z.string().trim().min(1).max(200) }),
  z.object({ field: z.literal('domain'), operator: z.enum(['equals', 'contains']), value: domainValue }),
  z.object({ field: z.literal('type'), operator: z.literal('equals'), value: BookmarkType }),
  z.object({ field: z.literal('isFavorite'), operator: z.literal('equals'), value: z.enum(['true', 'false']) }),
  z.object({ field: z.literal('createdAfter'), operator: z.literal('equals'), value: msString }),
  z.object({ field: z.literal('createdBefore'), operator: z.literal('equals'), value: msString }),
  z.object({ field: z.literal('clickCount'), operator: z.enum(['gte', 'lte']), value: countString }),
]);
export type Condition = z.infer<typeof Condition>;

export const Rules = z.object({
  match: z.enum(['all', 'any']),
  conditions: z.array(Condition).max(MAX_CONDITIONS, `must hold at most ${MAX_CONDITIONS} conditions`),
});
export type Rules = z.infer<typeof Rules>;

export const SmartFolder = z.object({
  id: Id,
  name: z.string(),
  icon: z.string(),
  color: z.string(),
  rules: Rules,
  createdAt: IsoDate,
});
export type SmartFolder = z.infer<typeof SmartFolder>;

const name = text(200).refine((s) => s.length > 0, 'must not be empty');

export const CreateSmartFolderBody = z.object({
  name,
  icon: z.string().max(64).optional(),
  color: z.string().max(32).optional(),
  rules: Rules,
});
export const PatchSmartFolderBody = z
  .object({ name, icon: z.string().max(64), color: z.string().max(32), rules: Rules })
  .partial()
  .strict();

export const EvaluateQuery = z.object({ cursor: Cursor.optional() });
export const Evaluation = z.object({
  bookmarks: z.array(Bookmark),
  continueCursor: z.string().nullable(),
  truncated: z.boolean(),
});
