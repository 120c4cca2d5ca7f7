import { DAY, MINUTE } from '../clock.ts';
import { ApiError } from '../http/api-error.ts';

/** Upload URLs (cover and import) are valid this long. */
export const RESERVATION_TTL_MS = 15 * MINUTE;
export { MAX_IMPORT_BYTES } from '../../lib/api/jobs.ts';
/** An import file the jobs module never deleted (a job that never ran) goes after this long. */
export const IMPORT_FILE_TTL_MS = DAY;

export const megabytes = (bytes: number): string => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

export const fileTooLarge = (maxBytes: number): ApiError =>
  new ApiError('FILE_TOO_LARGE', `The cover is larger than ${megabytes(maxBytes)}, the most a cover may be`);
