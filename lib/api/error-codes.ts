/** The spec's authentication failures: each one counts toward the IP block, whichever check refused it. */
export const AUTHENTICATION_FAILURES = [
  'MISSING_TOKEN',
  'INVALID_TOKEN',
  'TOKEN_REVOKED',
  'TOKEN_EXPIRED',
  'SCOPE_REQUIRED',
  'API_ACCESS_PRO_REQUIRED',
] as const;
export type AuthenticationFailure = (typeof AUTHENTICATION_FAILURES)[number];

export const isAuthenticationFailure = (code: string): code is AuthenticationFailure =>
  (AUTHENTICATION_FAILURES as readonly string[]).includes(code);

/**
 * Every error code the API answers with, as plain data (no zod), so that UI code
 * can know the codes without loading a schema library. The first block is the
 * spec's own; the second covers what the spec leaves "not shown" (see docs/api-decisions.md).
 */
export const ERROR_CODES = [
  ...AUTHENTICATION_FAILURES,
  'RATE_LIMITED',
  'INVALID_FILE_TYPE',
  'FILE_TOO_LARGE',
  'STORAGE_LIMIT_REACHED',
  'RESERVATION_INVALID',
  'TOO_MANY_PENDING_UPLOADS',
  'COLLECTION_TOO_LARGE',
  'SMART_FOLDER_CURSOR_INVALID',

  'VALIDATION_ERROR',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  'JOB_NOT_READY',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
