import { z } from 'zod';

export const Id = z.string().min(1).max(64);
export const IsoDate = z.string();

/** Query-string integer limit: default when absent, values above the maximum are clamped. */
export const limitParam = (fallback: number, max: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return fallback;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 1) {
        ctx.addIssue({ code: 'custom', message: 'must be a whole number of at least 1' });
        return z.NEVER;
      }
      return Math.min(n, max);
    });

/** Query-string boolean: only the words true and false. */
export const booleanParam = z
  .enum(['true', 'false'], { message: 'must be true or false' })
  .transform((v) => v === 'true');

/** Room for a keyset cursor carrying a full title (2,000 characters) or host name. */
export const Cursor = z.string().min(1).max(12_000);

/** A free-text field: surrounding white space is dropped, inner text kept as given. */
export const text = (max: number) => z.string().max(max).transform((s) => s.trim());

export const httpUrl = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(8192)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const { protocol, hostname } = new URL(value);
    return (protocol === 'http:' || protocol === 'https:') && hostname.length > 0;
  }, 'must be an absolute http or https URL');

export const EmptyBody = z.object({}).strict();
export const SuccessResult = z.object({ success: z.boolean() });
