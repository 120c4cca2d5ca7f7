import { z } from 'zod';
import { ErrorCode } from './errors.ts';

export const RequestId = z.string().regex(/^req_[0-9a-f]+$/);
export const Meta = z.object({ requestId: RequestId });

export const successEnvelope = <T extends z.ZodType>(data: T) => z.object({ data, meta: Meta });

export const ErrorEnvelope = z.object({
  error: z.object({ code: ErrorCode, message: z.string() }),
  meta: Meta,
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** The IP-block answer is the one response whose `error` is a plain string. */
export const IpBlockEnvelope = z.object({ error: z.string(), meta: Meta });
