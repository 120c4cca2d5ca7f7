import { ERROR_CODES } from '../api/error-codes.ts';

/**
 * Every failure the extension can meet, as a code: the API's own codes plus
 * what can go wrong before or around an answer. Plain data: the popup paints
 * before any schema library loads.
 */
export const CLIENT_ERROR_CODES = [
  ...ERROR_CODES,
  'IP_BLOCKED',
  'NETWORK_ERROR',
  'MALFORMED_RESPONSE',
  'UNKNOWN_API_ERROR',
  'NOT_SIGNED_IN',
  'PERMISSION_DENIED',
  // Import this browser's bookmarks: the browser did not let Shelf read them.
  'BOOKMARKS_NOT_ALLOWED',
  'INSECURE_SERVER',
  'BAD_MESSAGE',
  // The rest of a duplicate search, asked after the background restarted and lost it.
  'SEARCH_GONE',
  // Set as cover: refused in the extension, before anything is uploaded.
  'COVER_NEEDS_PRO',
  'IMAGE_UNREADABLE',
  'IMAGE_UNSUPPORTED',
] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** The plain form of an error, as it crosses the message boundary (checked there, in lib/messaging/transport.ts). */
export interface SerializedError {
  code: ClientErrorCode;
  message: string;
  status?: number;
  retryAfterSeconds?: number;
}

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

/** The codes after which nothing works until the user signs in again (with a new token, or at all). */
const SIGN_IN_AGAIN: ReadonlySet<ClientErrorCode> = new Set(['TOKEN_REVOKED', 'TOKEN_EXPIRED', 'INVALID_TOKEN', 'MISSING_TOKEN', 'NOT_SIGNED_IN']);

export const needsSignIn = (code: ClientErrorCode): boolean => SIGN_IN_AGAIN.has(code);
