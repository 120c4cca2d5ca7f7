import { ApiError } from '../../http/api-error.ts';
import { fileTooLarge, megabytes } from '../../storage/limits.ts';
import type { ImageType } from '../../storage/sniff.ts';
import type { Reservation, SaveCoverInput, UploadKind } from '../uploads.ts';

/** The upload tables' rows as both backends read them, and the rules (with their messages) that the uploads store applies. */

export type ReservationRow = {
  id: string;
  user_id: string;
  kind: UploadKind;
  bookmark_id: string | null;
  job_id: string | null;
  max_bytes: number;
  created_at: number;
  expires_at: number;
  file_id: string | null;
  used_at: number | null;
};

export type FileRow = {
  id: string;
  user_id: string;
  size: number;
  declared_type: string | null;
  detected_type: ImageType | null;
  oversize: number;
};

/** How many reservations are outstanding, and when the first of them (that can) expires. */
export type Pending = {
  n: number;
  first_expiry: number | null;
};

export const toReservation = (r: ReservationRow): Reservation => ({
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  bookmarkId: r.bookmark_id,
  jobId: r.job_id,
  maxBytes: r.max_bytes,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  fileId: r.file_id,
  usedAt: r.used_at,
});

const TYPE_NAMES: Record<ImageType, string> = {
  'image/jpeg': 'a JPEG',
  'image/png': 'a PNG',
  'image/gif': 'a GIF',
  'image/webp': 'a WebP',
};

const reservationInvalid = (message: string): ApiError => new ApiError('RESERVATION_INVALID', message);

const retryAfter = (expiry: number, now: number): Record<string, string> => ({
  'Retry-After': String(Math.max(1, Math.ceil((expiry - now) / 1000))),
});

export function checkPendingCovers(pending: Pending, maxPending: number, now: number): void {
  if (pending.n < maxPending) return;
  throw new ApiError(
    'TOO_MANY_PENDING_UPLOADS',
    `${pending.n} cover uploads are already outstanding (at most ${maxPending}); save or abandon one, or wait until one expires`,
    retryAfter(pending.first_expiry ?? now, now),
  );
}

export function checkPendingImports(pending: Pending, maxPending: number, now: number): void {
  if (pending.n < maxPending) return;
  throw new ApiError(
    'TOO_MANY_PENDING_UPLOADS',
    `${pending.n} imports are already reserved and not started (at most ${maxPending}); ` +
      'start one with POST /import/start, or wait until an unused upload URL expires',
    // Only an unused upload URL ends by itself soon; an uploaded file waits for its start.
    pending.first_expiry === null ? {} : retryAfter(pending.first_expiry, now),
  );
}

/** Why the reservation behind an upload URL cannot take an upload now (row: the one with the URL's token, if any). */
export function checkClaim(row: ReservationRow | undefined, now: number): asserts row is ReservationRow {
  if (!row) throw reservationInvalid('This upload URL is not valid; ask for a new one');
  if (row.file_id !== null || row.used_at !== null) {
    throw reservationInvalid('This upload URL was already used; each one takes a single upload, so ask for a new one');
  }
  if (row.expires_at <= now) throw reservationInvalid('This upload URL expired (they are valid for 15 minutes); ask for a new one');
}

export function checkImportQuota(total: number, quotaBytes: number): void {
  if (total <= quotaBytes) return;
  throw new ApiError(
    'STORAGE_LIMIT_REACHED',
    `This import file would bring your storage to ${megabytes(total)}, above the ${megabytes(quotaBytes)} quota; start your pending imports or delete covers first`,
  );
}

export function checkCoverQuota(total: number, quotaBytes: number): void {
  if (total <= quotaBytes) return;
  throw new ApiError(
    'STORAGE_LIMIT_REACHED',
    `This cover would bring your storage to ${megabytes(total)}, above the ${megabytes(quotaBytes)} quota; delete other covers first`,
  );
}

/**
 * The file id of the upload a save names, when its reservation may be used for this
 * bookmark; RESERVATION_INVALID with one message per reason it may not.
 */
export function savedUpload(row: ReservationRow | undefined, input: SaveCoverInput, now: number): string {
  const id = input.reservationId;
  if (!row || row.user_id !== input.userId || row.kind !== 'cover') {
    throw reservationInvalid(`There is no cover-upload reservation ${id}; ask for an upload URL first`);
  }
  if (row.used_at !== null) throw reservationInvalid(`Reservation ${id} was already used; each reservation saves one cover`);
  if (row.expires_at <= now) throw reservationInvalid(`Reservation ${id} expired (they are valid for 15 minutes); ask for a new upload URL`);
  if (row.bookmark_id !== input.bookmarkId) {
    throw reservationInvalid(`Reservation ${id} was made for another bookmark; ask for an upload URL for this one`);
  }
  if (row.file_id === null) throw nothingUploaded(id);
  return row.file_id;
}

const nothingUploaded = (id: string): ApiError =>
  reservationInvalid(`Nothing has been uploaded through reservation ${id} yet; upload the image to its uploadUrl first`);

/**
 * The uploaded file (file: the record of savedUpload's id, if any) when it is the one the
 * save names and may be a cover: within the size limit and an accepted image whose bytes
 * match the type it was sent as.
 */
export function coverFile(file: FileRow | undefined, input: SaveCoverInput): FileRow {
  if (!file) throw nothingUploaded(input.reservationId);
  if (file.id !== input.storageId) {
    throw reservationInvalid(`storageId ${input.storageId} is not the file uploaded through reservation ${input.reservationId}`);
  }
  if (file.oversize === 1 || file.size > input.maxBytes) {
    throw fileTooLarge(input.maxBytes);
  }
  if (file.detected_type === null) {
    throw new ApiError('INVALID_FILE_TYPE', 'The file is not a JPEG, PNG, GIF or WebP image');
  }
  if (file.declared_type !== null && file.declared_type !== file.detected_type) {
    throw new ApiError(
      'INVALID_FILE_TYPE',
      `The file is ${TYPE_NAMES[file.detected_type]} image but was uploaded as ${file.declared_type}; send it with Content-Type ${file.detected_type}`,
    );
  }
  return file;
}
