import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.ts';

export const Id = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(64)));
export const IsoDate = lazySchema(() => z.string());

/** Query-string integer limit: default when absent, values above the maximum are clamped. */
export const limitParam = /* @__NO_SIDE_EFFECTS__ */ (fallback: number, max: number) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((raw: string | undefined, ctx) => {
      if (raw === undefined || raw === '') return fallback;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 1) {
        ctx.issues.push({ code: 'custom', message: 'must be a whole number of at least 1', input: raw });
        return z.NEVER;
      }
      return Math.min(n, max);
    }),
  );

/** Query-string boolean: only the words true and false. */
export const booleanParam = lazySchema(() => z.pipe(
  z.enum(['true', 'false'], { message: 'must be true or false' }),
  z.transform((v: 'true' | 'false') => v === 'true'),
));

/** Room for a keyset cursor carrying a full title (2,000 characters) or host name. */
export const Cursor = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(12_000)));

/** A free-text field: surrounding white space is dropped, inner text kept as given. */
export const text = /* @__NO_SIDE_EFFECTS__ */ (max: number) => z.pipe(z.string().check(z.maxLength(max)), z.transform((s: string) => s.trim()));

export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol, hostname } = new URL(value);
  return (protocol === 'http:' || protocol === 'https:') && hostname.length > 0;
}

export const httpUrl = lazySchema(() => z.string().check(
  z.trim(),
  z.minLength(1, 'is required'),
  z.maxLength(8192),
  z.refine(isHttpUrl, 'must be an absolute http or https URL'),
));

/** An image the extension shows (a favicon): fetched by every page that lists the bookmark, so http(s) only; '' means none. */
export const imageUrl = lazySchema(() => z.string().check(
  z.trim(),
  z.maxLength(8192),
  z.refine((value) => value === '' || isHttpUrl(value), 'must be an absolute http or https URL, or empty'),
));

export const EmptyBody = lazySchema(() => z.strictObject({}));
export const SuccessResult = lazySchema(() => z.object({ success: z.boolean() }));
