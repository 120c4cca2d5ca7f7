import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/api-error.ts';
import { newId } from '../../ids.ts';
import type { ImageType } from '../../storage/sniff.ts';
import {
  type FileRow,
  type Pending,
  type ReservationRow,
  checkClaim,
  checkCoverQuota,
  checkImportQuota,
  checkPendingCovers,
  checkPendingImports,
  coverFile,
  savedUpload,
  toReservation,
} from '../shared/upload-rules.ts';
import type { NewFile, NewReservation, Reservation, SaveCoverInput, UploadKind, UploadsStore } from '../uploads.ts';

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
      pending: db.prepare<[string, number], Pending>(
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
      pendingImports: db.prepare<[string, number], Pending>(
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
      checkPendingCovers(this.q.pending.get(input.userId, now)!, maxPending, now);
      return this.insertReservation('cover', { ...input, jobId: null }, now);
    })();
  }

  async reserveImport(input: NewReservation & { jobId: string }, maxPending: number, now: number): Promise<Reservation> {
    return this.db.transaction(() => {
      checkPendingImports(this.q.pendingImports.get(input.userId, now)!, maxPending, now);
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
      checkClaim(row, now);
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
      if (row.kind === 'import') checkImportQuota(this.usedBytes(userId) + file.size, quotaBytes);
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
      const fileId = savedUpload(this.q.reservation.get(input.reservationId), input, now);
      const file = coverFile(this.q.file.get(fileId), input);
      const replaced = bookmark.cover_file_id === null ? undefined : this.q.file.get(bookmark.cover_file_id);
      checkCoverQuota(this.usedBytes(input.userId) - (replaced?.size ?? 0) + file.size, input.quotaBytes);

      this.db
        .prepare('UPDATE bookmarks SET cover_file_id = ?, cover_image = ?, updated_at = ? WHERE id = ?')
        .run(file.id, input.url, now, input.bookmarkId);
      this.db.prepare('UPDATE upload_reservations SET used_at = ? WHERE id = ?').run(now, input.reservationId);
      this.db.prepare('UPDATE stored_files SET attached_at = ? WHERE id = ?').run(now, file.id);
      return { freedFileId: this.forgetFiles(replaced ? [replaced.id] : [])[0] ?? null };
    })();
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
