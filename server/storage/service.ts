import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { MAX_COVER_BYTES, MAX_PENDING_UPLOADS, STORAGE_QUOTA_BYTES } from '../../lib/api/covers.ts';
import type { Clock } from '../clock.ts';
import { ApiError, notFound } from '../http/api-error.ts';
import type { FileBytes } from '../store/files.ts';
import type { Store } from '../store/store.ts';
import type { Reservation, UploadsStore } from '../store/uploads.ts';
import { isFileId, newFileId } from './disk.ts';
import { IMPORT_FILE_TTL_MS, MAX_IMPORT_BYTES, RESERVATION_TTL_MS, fileTooLarge, megabytes } from './limits.ts';
import { receive } from './receive.ts';
import { type ImageType, declaredType, sniffImageType } from './sniff.ts';
import { fileUrl, uploadUrl } from './urls.ts';

export interface StorageOptions {
  /** Its uploads store holds the records, its files the bytes. */
  store: Store;
  clock: Clock;
  /** Limits, lowered by tests; the spec's values by default. */
  maxCoverBytes?: number;
  quotaBytes?: number;
  maxPendingUploads?: number;
  maxImportBytes?: number;
}

/** What an upload answers: the file's id, and the refusal of a cover past its limit (then only a marker was kept). */
export interface UploadOutcome {
  storageId: string;
  refused: ApiError | null;
}

/** The token in an uploadUrl: 256 random bits. */
const UPLOAD_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The storage service: hands out single-use upload URLs, receives their bytes,
 * turns uploads into bookmark covers, keeps import files for the jobs module, and
 * frees what nobody needs any more. Records live in the store's uploads, bytes in its files.
 */
export class StorageService {
  private readonly uploads: UploadsStore;
  private readonly clock: Clock;
  private readonly files: FileBytes;
  private readonly limits: { cover: number; quota: number; pending: number; import: number };
  /** Uploads being written: their bytes exist before their record does. */
  private readonly writing = new Set<string>();

  constructor(options: StorageOptions) {
    this.uploads = options.store.uploads;
    this.clock = options.clock;
    this.files = options.store.files;
    this.limits = {
      cover: options.maxCoverBytes ?? MAX_COVER_BYTES,
      quota: options.quotaBytes ?? STORAGE_QUOTA_BYTES,
      pending: options.maxPendingUploads ?? MAX_PENDING_UPLOADS,
      import: options.maxImportBytes ?? MAX_IMPORT_BYTES,
    };
  }

  // Covers

  async reserveCover(userId: string, bookmarkId: string, origin: string): Promise<{ uploadUrl: string; reservationId: string }> {
    const token = newUploadToken();
    const now = this.clock.now();
    const reservation = await this.uploads.reserveCover(
      { tokenHash: hashToken(token), userId, bookmarkId, maxBytes: this.limits.cover, expiresAt: now + RESERVATION_TTL_MS },
      this.limits.pending,
      now,
    );
    if (!reservation) throw notFound('bookmark', bookmarkId);
    return { uploadUrl: uploadUrl(origin, token), reservationId: reservation.id };
  }

  async saveCover(
    userId: string,
    bookmarkId: string,
    body: { storageId: string; reservationId: string },
    origin: string,
  ): Promise<{ url: string }> {
    const url = fileUrl(origin, body.storageId);
    const { freedFileId } = await this.uploads.saveCover(
      { userId, bookmarkId, ...body, maxBytes: this.limits.cover, quotaBytes: this.limits.quota, url },
      this.clock.now(),
    );
    await this.freeBytes([freedFileId]);
    return { url };
  }

  async deleteCover(userId: string, bookmarkId: string): Promise<void> {
    const { freedFileId } = await this.uploads.deleteCover(userId, bookmarkId, this.clock.now());
    await this.freeBytes([freedFileId]);
  }

  /** A cover some bookmark shows: its bytes and what type they are. */
  async coverFile(fileId: string): Promise<{ stream: Readable; size: number; type: ImageType } | null> {
    if (!isFileId(fileId)) return null;
    const cover = await this.uploads.servedCover(fileId);
    const bytes = cover && (await this.files.open(fileId));
    return bytes && { ...cover, stream: bytes.stream };
  }

  /** Bytes of the user's covers. */
  coverUsage(userId: string): Promise<number> {
    return this.uploads.coverBytes(userId);
  }

  // Import files (the import jobs module's side)

  async reserveImport(userId: string, jobId: string, origin: string): Promise<{ uploadUrl: string }> {
    const token = newUploadToken();
    const now = this.clock.now();
    await this.uploads.reserveImport(
      { tokenHash: hashToken(token), userId, jobId, maxBytes: this.limits.import, expiresAt: now + RESERVATION_TTL_MS },
      this.limits.pending,
      now,
    );
    return { uploadUrl: uploadUrl(origin, token) };
  }

  /** The file uploaded for this job of this user, or null; changes nothing. `read` answers null when its bytes are gone. */
  async openImportFile(userId: string, jobId: string, storageId: string): Promise<{ size: number; read(): Promise<Readable | null> } | null> {
    if (!isFileId(storageId)) return null;
    const file = await this.uploads.importFile(userId, jobId, storageId);
    return file && { size: file.size, read: async () => (await this.files.open(storageId))?.stream ?? null };
  }

  async deleteFile(fileId: string): Promise<void> {
    if (!isFileId(fileId)) return;
    await this.uploads.deleteFile(fileId);
    await this.freeBytes([fileId]);
  }

  /** For failed (or abandoned) import jobs: their reservations and uploaded files go. */
  async deleteImportFilesOfJob(jobId: string): Promise<void> {
    await this.freeBytes(await this.uploads.deleteImportFilesOfJob(jobId));
  }

  // Uploads (the storage app's side)

  /**
   * Receives the one upload of the reservation behind `token`. A cover past its
   * limit keeps a marker record (so that its save answers FILE_TOO_LARGE, as the
   * spec lists it) and uses the URL up; an import file past its limit is refused
   * with PAYLOAD_TOO_LARGE and leaves the URL usable.
   */
  async receiveUpload(token: string, body: ReadableStream<Uint8Array> | null, contentType: string | undefined): Promise<UploadOutcome> {
    if (!UPLOAD_TOKEN.test(token)) throw new ApiError('RESERVATION_INVALID', 'This upload URL is not valid; ask for a new one');
    const fileId = newFileId();
    const reservation = await this.uploads.claimUpload(hashToken(token), fileId, this.clock.now());
    this.writing.add(fileId);
    try {
      return await this.write(reservation, fileId, body, contentType);
    } catch (err) {
      await this.uploads.releaseUpload(reservation.id, fileId);
      await this.files.remove([fileId]);
      throw err;
    } finally {
      this.writing.delete(fileId);
    }
  }

  private async write(
    reservation: Reservation,
    fileId: string,
    body: ReadableStream<Uint8Array> | null,
    contentType: string | undefined,
  ): Promise<UploadOutcome> {
    const received = await receive(this.files, fileId, body, reservation.maxBytes);
    if (received.outcome === 'empty') {
      throw new ApiError('VALIDATION_ERROR', 'The upload is empty; send the file\'s bytes as the request body');
    }
    const tooLarge = received.outcome === 'too-large';
    if (tooLarge && reservation.kind === 'import') {
      throw new ApiError('PAYLOAD_TOO_LARGE', `The import file is larger than ${megabytes(reservation.maxBytes)}, the most an import may be`);
    }
    const recorded = await this.uploads.recordFile(
      reservation.id,
      reservation.userId,
      {
        id: fileId,
        size: received.size,
        declaredType: declaredType(contentType),
        detectedType: reservation.kind === 'cover' ? sniffImageType(received.head) : null,
        oversize: tooLarge,
      },
      this.limits.quota,
      this.clock.now(),
    );
    if (!recorded) throw new ApiError('RESERVATION_INVALID', 'This upload URL expired while the upload was arriving; ask for a new one');
    return { storageId: fileId, refused: tooLarge ? fileTooLarge(reservation.maxBytes) : null };
  }

  // Clean-up

  /** Frees expired reservations with their unsaved uploads, covers of deleted bookmarks, stale import files and stray bytes. */
  async sweep(now: number): Promise<void> {
    await this.freeBytes(await this.uploads.sweepExpired(now));
    await this.freeBytes(await this.uploads.sweepOrphanCovers());
    await this.freeBytes(await this.uploads.sweepImportFiles(now - IMPORT_FILE_TTL_MS));
    await this.removeStrayBytes();
  }

  /** Bytes with no record and no upload writing them: left by a crash between a commit and the removal of the bytes. */
  private async removeStrayBytes(): Promise<void> {
    const ids = (await this.files.list()).filter((id) => !this.writing.has(id));
    const known = await this.uploads.knownFiles(ids);
    await this.files.remove(ids.filter((id) => !known.has(id)));
  }

  private async freeBytes(ids: (string | null)[]): Promise<void> {
    await this.files.remove(ids.filter((id): id is string => id !== null));
  }
}

const newUploadToken = (): string => randomBytes(32).toString('base64url');
