import * as z from 'zod/mini';
import { Id } from './common.ts';
import { lazySchema } from './lazy-schema.ts';

export const UploadReservation = lazySchema(() => z.object({ uploadUrl: z.string(), reservationId: Id }));
export const SaveCoverBody = lazySchema(() => z.object({ storageId: Id, reservationId: Id }));
export const CoverSaved = lazySchema(() => z.object({ url: z.string() }));
/** The storage service's reply: not enveloped. */
export const StoredFile = lazySchema(() => z.object({ storageId: Id }));

export const MAX_COVER_BYTES = 10 * 1024 * 1024;
export const STORAGE_QUOTA_BYTES = 500 * 1024 * 1024;
export const MAX_PENDING_UPLOADS = 5;
