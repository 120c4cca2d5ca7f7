import type { Db } from '../../db/database.ts';
import { ApiError, notFound } from '../../http/api-error.ts';
import { newId } from '../../ids.ts';
import { fileTooLarge, megabytes } from '../../storage/limits.ts';
import type { ImageType } from '../../storage/sniff.ts';
import type { NewFile, NewReservation, Reservation, SaveCoverInput, UploadKind, UploadsStore } from '../uploads.ts';

interface ReservationRow {
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
}

interface FileRow {
  id: string;
  user_id: string;
  size: number;
  declared_type: string | null;
  detected_type: ImageType | null;
  oversize: number;
}

const toReservation = (r: ReservationRow): Reservation => ({
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

/** Ids bound as one JSON parameter: `IN (SELECT value FROM json_each(?))`. */
const IN_IDS = 'IN (SELECT value FROM json_each(?))';

export class SqliteUploads implements UploadsStore {
  private q;

  constructor(private db: Db) {
    this.q = {
      reservation: db.prepare<[string], ReservationRow>('SELECT * FROM upload_reservations WHERE id = ?'),
      byToken: db.prepare<[string], ReservationRow>('SELECT * FROM upload_reservations WHERE token_hash = ?'),
      insertReservation: db.prepare(
        `INSERT INTO upload_reservations (id, token_hash, user_id, kind, bookmark_id, job_id, max_bytes, created_at, expires_at)
         VALUES (@id, @tokenHash, @userId, @kind, @bookmarkId, @jobId, @maxBytes, @now, @expiresAt)`,
      ),
      file: db.prepare<[string], FileRow>('SELECT * FROM stored_files WHERE id = ?'),
      activeBookmark: db.prepare<[string, string], { cover_file_id: string | null }>(
        'SELECT cover_file_id FROM bookmarks WHERE id = ? AND user_id = ? AND deleted_at IS NULL',
      ),
      pending: db.prepare<[string, number], { n: number; first_expiry: number | null }>(
        `SELECT COUNT(*) AS n, MIN(expires_at) AS first_expiry FROM upload_reservations
         WHERE user_id = ? AND kind = 'cover' AND used_at IS NULL AND expires_at > ?`,
      ),
      coverBytes: db.prepare<[string], { total: number }>(
        `SELECT COALESCE(SUM(f.size), 0) AS total FROM bookmarks b JOIN stored_files f ON f.id = b.cover_file_id
         WHERE b.user_id = ?`,
      ),
      // Import files are deleted once their job ends; until then they take room like covers.
      importBytes: db.prepare<[string], number>(
        `SELECT COALESCE(SUM(size), 0) FROM stored_files WHERE user_id = ? AND kind = 'import'`,
      ).pluck(),
      // An upload URL still valid, or a file uploaded (or arriving), for an import not started yet.
      pendingImports: db.prepare<[string, number], { n: number; first_expiry: number | null }>(
        `SELECT COUNT(*) AS n, MIN(CASE WHEN r.file_id IS NULL THEN r.expires_at END) AS first_expiry
         FROM upload_reservations r JOIN jobs j ON j.id = r.job_id
         WHERE r.user_id = ? AND r.kind = 'import' AND j.status = 'pending' AND (r.expires_at > ? OR r.file_id IS NOT NULL)`,
      ),
      deleteFiles: db.prepare<[string]>(`DELETE FROM stored_files WHERE id ${IN_IDS}`),
    };
  }

  async reserveCover(input: NewReservation & { bookmarkId: string }, maxPending: number, now: number): Promise<Reservation | null> {
    return this.db.transaction(() => {
      if (!this.q.activeBookmark.get(input.bookmarkId, input.userId)) return null;
      const pending = this.q.pending.get(input.userId, now)!;
      if (pending.n >= maxPending) {
        const retryAfter = Math.max(1, Math.ceil(((pending.first_expiry ?? now) - now) / 1000));
        throw new ApiError(
          'TOO_MANY_PENDING_UPLOADS',
          `${pending.n} cover uploads are already outstanding (at most ${maxPending}); save or abandon one, or wait until one expires`,
          { 'Retry-After': String(retryAfter) },
        );
      }
      return this.insertReservation('cover', { ...input, jobId: null }, now);
    })();
  }

  async reserveImport(input: NewReservation & { jobId: string }, maxPending: number, now: number): Promise<Reservation> {
    return this.db.transaction(() => {
      const pending = this.q.pendingImports.get(input.userId, now)!;
      if (pending.n >= maxPending) {
        // Only an unused upload URL ends by itself soon; an uploaded file waits for its start.
        const retryAfter: Record<string, string> =
          pending.first_expiry === null ? {} : { 'Retry-After': String(Math.max(1, Math.ceil((pending.first_expiry - now) / 1000))) };
        throw new ApiError(
          'TOO_MANY_PENDING_UPLOADS',
          `${pending.n} imports are already reserved and not started (at most ${maxPending}); ` +
            'start one with POST /import/start, or wait until an unused upload URL expires',
          retryAfter,
        );
      }
      return this.insertReservation('import', { ...input, bookmarkId: null }, now);
    })();
  }

  private insertReservation(
    kind: UploadKind,
    input: NewReservation & { bookmarkId: string | null; jobId: string | null },
    now: number,
  ): Reservation {
    const id = newId('rsv');
    this.q.insertReservation.run({ ...input, id, kind, now });
    return toReservation(this.q.reservation.get(id)!);
  }

  async claimUpload(tokenHash: string, fileId: string, now: number): Promise<Reservation> {
    return this.db.transaction(() => {
      const row = this.q.byToken.get(tokenHash);
      if (!row) throw reservationInvalid('This upload URL is not valid; ask for a new one');
      if (row.file_id !== null || row.used_at !== null) {
        throw reservationInvalid('This upload URL was already used; each one takes a single upload, so ask for a new one');
      }
      if (row.expires_at <= now) throw reservationInvalid('This upload URL expired (they are valid for 15 minutes); ask for a new one');
      this.db.prepare('UPDATE upload_reservations SET file_id = ? WHERE id = ?').run(fileId, row.id);
      return toReservation({ ...row, file_id: fileId });
    })();
  }

  async releaseUpload(reservationId: string, fileId: string): Promise<void> {
    this.db.prepare('UPDATE upload_reservations SET file_id = NULL WHERE id = ? AND file_id = ?').run(reservationId, fileId);
  }

  async recordFile(reservationId: string, userId: string, file: NewFile, quotaBytes: number, now: number): Promise<boolean> {
    return this.db.transaction(() => {
      const row = this.q.reservation.get(reservationId);
      if (row?.file_id !== file.id) return false;
      if (row.kind === 'import') {
        const total = this.usedBytes(userId) + file.size;
        if (total > quotaBytes) {
          throw new ApiError(
            'STORAGE_LIMIT_REACHED',
            `This import file would bring your storage to ${megabytes(total)}, above the ${megabytes(quotaBytes)} quota; start your pending imports or delete covers first`,
          );
        }
      }
      this.db
        .prepare(
          `INSERT INTO stored_files (id, user_id, kind, size, declared_type, detected_type, oversize, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(file.id, userId, row.kind, file.size, file.declaredType, file.detectedType, file.oversize ? 1 : 0, now);
      return true;
    })();
  }

  async saveCover(input: SaveCoverInput, now: number): Promise<{ freedFileId: string | null }> {
    return this.db.transaction(() => {
      const bookmark = this.q.activeBookmark.get(input.bookmarkId, input.userId);
      if (!bookmark) throw notFound('bookmark', input.bookmarkId);
      const file = this.uploadedFile(input, now);
      checkCoverFile(file, input.maxBytes);

      const replaced = bookmark.cover_file_id === null ? undefined : this.q.file.get(bookmark.cover_file_id);
      const total = this.usedBytes(input.userId) - (replaced?.size ?? 0) + file.size;
      if (total > input.quotaBytes) {
        throw new ApiError(
          'STORAGE_LIMIT_REACHED',
          `This cover would bring your storage to ${megabytes(total)}, above the ${megabytes(input.quotaBytes)} quota; delete other covers first`,
        );
      }

      this.db
        .prepare('UPDATE bookmarks SET cover_file_id = ?, cover_image = ?, updated_at = ? WHERE id = ?')
        .run(file.id, input.url, now, input.bookmarkId);
      this.db.prepare('UPDATE upload_reservations SET used_at = ? WHERE id = ?').run(now, input.reservationId);
      this.db.prepare('UPDATE stored_files SET attached_at = ? WHERE id = ?').run(now, file.id);
      return { freedFileId: this.forgetFiles(replaced ? [replaced.id] : [])[0] ?? null };
    })();
  }

  /**
   * The file a save names, when its reservation may be used for this bookmark and
   * that file; RESERVATION_INVALID with one message per reason it may not.
   */
  private uploadedFile(input: SaveCoverInput, now: number): FileRow {
    const { reservationId: id, storageId } = input;
    const row = this.q.reservation.get(id);
    if (!row || row.user_id !== input.userId || row.kind !== 'cover') {
      throw reservationInvalid(`There is no cover-upload reservation ${id}; ask for an upload URL first`);
    }
    if (row.used_at !== null) throw reservationInvalid(`Reservation ${id} was already used; each reservation saves one cover`);
    if (row.expires_at <= now) throw reservationInvalid(`Reservation ${id} expired (they are valid for 15 minutes); ask for a new upload URL`);
    if (row.bookmark_id !== input.bookmarkId) {
      throw reservationInvalid(`Reservation ${id} was made for another bookmark; ask for an upload URL for this one`);
    }
    const file = row.file_id === null ? undefined : this.q.file.get(row.file_id);
    if (!file) throw reservationInvalid(`Nothing has been uploaded through reservation ${id} yet; upload the image to its uploadUrl first`);
    if (file.id !== storageId) throw reservationInvalid(`storageId ${storageId} is not the file uploaded through reservation ${id}`);
    return file;
  }

  async deleteCover(userId: string, bookmarkId: string, now: number): Promise<{ freedFileId: string | null }> {
    return this.db.transaction(() => {
      const bookmark = this.q.activeBookmark.get(bookmarkId, userId);
      if (!bookmark) throw notFound('bookmark', bookmarkId);
      this.db
        .prepare(
          `UPDATE bookmarks SET cover_file_id = NULL, cover_image = NULL, updated_at = ?
           WHERE id = ? AND (cover_file_id IS NOT NULL OR cover_image IS NOT NULL)`,
        )
        .run(now, bookmarkId);
      return { freedFileId: this.forgetFiles(bookmark.cover_file_id === null ? [] : [bookmark.cover_file_id])[0] ?? null };
    })();
  }

  async servedCover(fileId: string): Promise<{ type: ImageType; size: number } | null> {
    const row = this.db
      .prepare<[string], { detected_type: ImageType; size: number }>(
        `SELECT f.detected_type, f.size FROM stored_files f
         WHERE f.id = ? AND f.kind = 'cover' AND f.detected_type IS NOT NULL
           AND EXISTS (SELECT 1 FROM bookmarks b WHERE b.cover_file_id = f.id)`,
      )
      .get(fileId);
    return row ? { type: row.detected_type, size: row.size } : null;
  }

  async coverBytes(userId: string): Promise<number> {
    return this.q.coverBytes.get(userId)!.total;
  }

  /** What counts against the storage quota: covers, and import files waiting for (or read by) their job. */
  private usedBytes(userId: string): number {
    return this.q.coverBytes.get(userId)!.total + this.q.importBytes.get(userId)!;
  }

  async importFile(userId: string, jobId: string, fileId: string): Promise<{ size: number } | null> {
    const row = this.db
      .prepare<[string, string, string], { size: number }>(
        `SELECT f.size FROM stored_files f JOIN upload_reservations r ON r.file_id = f.id
         WHERE f.id = ? AND f.user_id = ? AND f.kind = 'import' AND f.oversize = 0 AND r.job_id = ?`,
      )
      .get(fileId, userId, jobId);
    return row ?? null;
  }

  async deleteFile(fileId: string): Promise<boolean> {
    return this.db.transaction(() => this.forgetFiles([fileId]).length > 0)();
  }

  async deleteImportFilesOfJob(jobId: string): Promise<string[]> {
    return this.db.transaction(() => {
      const fileIds = this.db
        .prepare<[string], string>(`SELECT file_id FROM upload_reservations WHERE job_id = ? AND kind = 'import' AND file_id IS NOT NULL`)
        .pluck()
        .all(jobId);
      this.db.prepare(`DELETE FROM upload_reservations WHERE job_id = ? AND kind = 'import'`).run(jobId);
      return this.forgetFiles(fileIds);
    })();
  }

  async sweepExpired(now: number): Promise<string[]> {
    return this.db.transaction(() => {
      const unsaved = this.db
        .prepare<[number], string>(
          `SELECT file_id FROM upload_reservations
           WHERE kind = 'cover' AND expires_at <= ? AND used_at IS NULL AND file_id IS NOT NULL`,
        )
        .pluck()
        .all(now);
      this.db
        .prepare(
          `DELETE FROM upload_reservations WHERE expires_at <= ?
             AND (kind = 'cover' OR NOT EXISTS (SELECT 1 FROM stored_files f WHERE f.id = upload_reservations.file_id))`,
        )
        .run(now);
      return this.forgetFiles(unsaved);
    })();
  }

  async sweepOrphanCovers(): Promise<string[]> {
    return this.db.transaction(() => {
      const orphans = this.db
        .prepare<[], string>(
          `SELECT id FROM stored_files f WHERE kind = 'cover' AND attached_at IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM bookmarks b WHERE b.cover_file_id = f.id)`,
        )
        .pluck()
        .all();
      return this.forgetFiles(orphans);
    })();
  }

  async sweepImportFiles(cutoff: number): Promise<string[]> {
    return this.db.transaction(() => {
      const stale = this.db
        .prepare<[number], string>(`SELECT id FROM stored_files WHERE kind = 'import' AND created_at <= ?`)
        .pluck()
        .all(cutoff);
      return this.forgetFiles(stale);
    })();
  }

  async knownFiles(ids: string[]): Promise<Set<string>> {
    const known = this.db.prepare<[string], string>(`SELECT id FROM stored_files WHERE id ${IN_IDS}`).pluck().all(JSON.stringify(ids));
    return new Set(known);
  }

  /**
   * Deletes file records with the reservations they came through and any cover
   * reference to them; answers the ids that existed. Runs inside the caller's transaction.
   */
  private forgetFiles(ids: string[]): string[] {
    if (ids.length === 0) return [];
    const json = JSON.stringify(ids);
    const existing = this.db.prepare<[string], string>(`SELECT id FROM stored_files WHERE id ${IN_IDS}`).pluck().all(json);
    this.db.prepare(`DELETE FROM upload_reservations WHERE file_id ${IN_IDS}`).run(json);
    this.db.prepare(`UPDATE bookmarks SET cover_file_id = NULL, cover_image = NULL WHERE cover_file_id ${IN_IDS}`).run(json);
    this.q.deleteFiles.run(json);
    return existing;
  }
}

/** A cover must be within the size limit and an accepted image whose bytes match the type it was sent as. */
function checkCoverFile(file: FileRow, maxBytes: number): void {
  if (file.oversize === 1 || file.size > maxBytes) {
    throw fileTooLarge(maxBytes);
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
}
