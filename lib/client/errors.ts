import * as z from 'zod/mini';
import { ErrorCode } from '../api/errors.ts';

/**
 * Every failure the extension can meet, as a code: the API's own codes plus
 * what can go wrong before or around an answer.
 */
export const ClientErrorCode = z.enum([
  ...ErrorCode.options,
  'IP_BLOCKED',
  'NETWORK_ERROR',
  'MALFORMED_RESPONSE',
  'UNKNOWN_API_ERROR',
  'NOT_SIGNED_IN',
  'PERMISSION_DENIED',
  'BAD_MESSAGE',
]);
export type ClientErrorCode = z.infer<typeof ClientErrorCode>;

/** The plain form of an error, as it crosses the message boundary between background and UI. */
export const SerializedError = z.object({
  code: ClientErrorCode,
  message: z.string(),
  status: z.optional(z.number()),
  retryAfterSeconds: z.optional(z.number()),
});
export type SerializedError = z.infer<typeof SerializedError>;

export class ClientError extends Error {
  readonly code: ClientErrorCode;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ClientErrorCode, message: string, details: { status?: number; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'ClientError';
    this.code = code;
    this.status = details.status;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }

  toJSON(): SerializedError {
    return {
      code: this.code,
      message: this.message,
      ...(this.status !== undefined && { status: this.status }),
      ...(this.retryAfterSeconds !== undefined && { retryAfterSeconds: this.retryAfterSeconds }),
    };
  }

  static from(serialized: SerializedError): ClientError {
    return new ClientError(serialized.code, serialized.message, serialized);
  }
}

/** Anything thrown, as a ClientError: a bug in our own code becomes a message, not a silent failure. */
export function toClientError(err: unknown): ClientError {
  if (err instanceof ClientError) return err;
  // Network failures are already ClientErrors (the API client makes them); anything else is a fault of ours.
  return new ClientError('BAD_MESSAGE', err instanceof Error ? err.message : String(err));
}
