import * as z from 'zod/mini';
import { ErrorCode } from './errors.ts';
import { lazySchema } from './lazy-schema.ts';

export const RequestId = lazySchema(() => z.string().check(z.regex(/^req_[0-9a-f]+$/)));
export const Meta = lazySchema(() => z.object({ requestId: RequestId }));

/** Any schema, mini or classic: tests parse answers with schemas of their own too. */
export const successEnvelope = <T extends z.core.$ZodType>(data: T) => z.object({ data, meta: Meta });

export const ErrorEnvelope = lazySchema(() => z.object({
  error: z.object({ code: ErrorCode, message: z.string() }),
  meta: Meta,
}));
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** The IP-block answer is the one response whose `error` is a plain string. */
export const IpBlockEnvelope = lazySchema(() => z.object({ error: z.string(), meta: Meta }));
