import * as z from 'zod/mini';
import { Bookmark, BookmarkType } from './bookmarks.ts';
import { Color } from './color.ts';
import { Cursor, Id, IsoDate, text } from './common.ts';
import { lazySchema } from './lazy-schema.ts';

export const MAX_CONDITIONS = 10;

const msString = lazySchema(() => z.string().check(z.regex(/^\d{1,15}$/, 'must be milliseconds since epoch, as a string of digits')));
const countString = lazySchema(() => z.string().check(z.regex(/^\d{1,9}$/, 'must be a whole number, as a string of digits')));

/**
 * lowercase, and scheme, www., port and path stripped: "https://WWW.Example.com/a" → "example.com";
 * an international name becomes punycode, the form bookmarks store their domain in.
 */
export function normaliseDomain(value: string): string {
  const host = value
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^www\./, '');
  return /[^\p{ASCII}]/u.test(host) && URL.canParse(`http://${host}`) ? new URL(`http://${host}`).hostname : host;
}

const domainValue = lazySchema(() => z
  .pipe(z.string().check(z.maxLength(255)), z.transform(normaliseDomain))
  .check(z.refine((d) => d.length > 0, 'must name a domain')));

const quoted = (input: unknown): string => (typeof input === 'string' ? `"${input.slice(0, 40)}"` : String(input).slice(0, 40));

/** The operators a field allows, with a message that names the field and its operators. */
const operators = <const T extends readonly [string, ...string[]]>(field: string, allowed: T) =>
  z.enum(allowed, {
    error: (issue) =>
      issue.input === undefined
        ? 'is required'
        : `operator ${quoted(issue.input)} is not allowed for field ${field}; use ${allowed.join(' or ')}`,
  });

const conditionShapes = () => [
  z.object({ field: z.literal('tag'), operator: operators('tag', ['equals', 'contains']), value: z.string().check(z.trim(), z.minLength(1, 'must name a tag'), z.maxLength(200)) }),
  z.object({ field: z.literal('domain'), operator: operators('domain', ['equals', 'contains']), value: domainValue }),
  z.object({ field: z.literal('type'), operator: operators('type', ['equals']), value: BookmarkType }),
  z.object({ field: z.literal('isFavorite'), operator: operators('isFavorite', ['equals']), value: z.enum(['true', 'false']) }),
  z.object({ field: z.literal('createdAfter'), operator: operators('createdAfter', ['equals']), value: msString }),
  z.object({ field: z.literal('createdBefore'), operator: operators('createdBefore', ['equals']), value: msString }),
  z.object({ field: z.literal('clickCount'), operator: operators('clickCount', ['gte', 'lte']), value: countString }),
] as const;

export const Condition = lazySchema(() => {
  const shapes = conditionShapes();
  const fieldNames = shapes.flatMap((shape) => shape.shape.field.def.values).join(', ');
  return z.discriminatedUnion('field', shapes, {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return undefined;
      const field = typeof issue.input === 'object' && issue.input !== null ? (issue.input as { field?: unknown }).field : undefined;
      return field === undefined ? 'is required' : `unknown field ${quoted(field)}; use one of ${fieldNames}`;
    },
  });
});
export type Condition = z.infer<typeof Condition>;

export const Rules = lazySchema(() => z.object({
  match: z.enum(['all', 'any']),
  conditions: z.array(Condition).check(z.maxLength(MAX_CONDITIONS, `must hold at most ${MAX_CONDITIONS} conditions`)),
}));
export type Rules = z.infer<typeof Rules>;

export const SmartFolder = lazySchema(() => z.object({
  id: Id,
  name: z.string(),
  icon: z.string(),
  color: z.string(),
  rules: Rules,
  createdAt: IsoDate,
}));
export type SmartFolder = z.infer<typeof SmartFolder>;

const name = lazySchema(() => text(200).check(z.refine((s) => s.length > 0, 'must not be empty')));

export const CreateSmartFolderBody = lazySchema(() => z.strictObject({
  name,
  icon: z.optional(z.string().check(z.maxLength(64))),
  color: z.optional(Color),
  rules: Rules,
}));
export const PatchSmartFolderBody = lazySchema(() => z.partial(
  z.strictObject({ name, icon: z.string().check(z.maxLength(64)), color: Color, rules: Rules }),
));

export const EvaluateQuery = lazySchema(() => z.object({ cursor: z.optional(Cursor) }));
export const Evaluation = lazySchema(() => z.object({
  bookmarks: z.array(Bookmark),
  continueCursor: z.nullable(z.string()),
  truncated: z.boolean(),
}));
export type Evaluation = z.infer<typeof Evaluation>;
