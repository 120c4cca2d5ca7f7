import * as z from 'zod/mini';
import { ERROR_CODES } from './error-codes.ts';
import { lazySchema } from './lazy-schema.ts';

/** The API's error codes as a schema (the list itself is in error-codes.ts). */
export const ErrorCode = lazySchema(() => z.enum(ERROR_CODES));
export type ErrorCode = z.infer<typeof ErrorCode>;

export const errorStatus: Record<ErrorCode, number> = {
  MISSING_TOKEN: 401,
  INVALID_TOKEN: 401,
  TOKEN_REVOKED: 401,
  TOKEN_EXPIRED: 401,
  SCOPE_REQUIRED: 403,
  API_ACCESS_PRO_REQUIRED: 403,
  RATE_LIMITED: 429,
  INVALID_FILE_TYPE: 422,
  FILE_TOO_LARGE: 422,
  STORAGE_LIMIT_REACHED: 422,
  RESERVATION_INVALID: 400,
  TOO_MANY_PENDING_UPLOADS: 429,
  COLLECTION_TOO_LARGE: 422,
  SMART_FOLDER_CURSOR_INVALID: 409,

  VALIDATION_ERROR: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_KEY_IN_USE: 409,
  JOB_NOT_READY: 409,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};
