import type { Pg, Sql } from '../../db/postgres/pg.ts';
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

const userLock = (userId: string) => ({ lock: `user:${userId}` });

/** The statements a sweep's candidates come from: (user_id, file id) pairs; $1 is the sweep's time or cutoff. */
const SWEEPS = {
  expired: `SELECT user_id, file_id AS id FROM upload_reservations
    WHERE kind = 'cover' AND expires_at <= $1 AND used_at IS NULL AND file_id IS NOT NULL`,
  orphans: `SELECT user_id, id FROM stored_files f WHERE kind = 'cover' AND attached_at IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM bookmarks b WHERE b.cover_file_id = f.id)`,
  importFiles: `SELECT user_id, id FROM stored_files WHERE kind = 'import' AND created_at <= $1`,
};

/**
 * Reservations and file records on PostgreSQL. Whatever reads a user's quota, pending count or
 * cover and then writes runs under that user's lock (`user:<id>`), as SQLite's one writer ran it.
 */
export class PgUploads implements UploadsStore {
  constructor(private db: Pg) {}

  async reserveCover(input: NewReservation & { bookmarkId: string }, maxPending: number, now: number): Promise<Reservation | null> {
    return this.db.transaction(async (tx) => {
      if (!(await activeBookmark(tx, input.bookmarkId, input.userId))) return null;
      const pending = await tx.get<Pending>(
        `SELECT COUNT(*) AS n, MIN(expires_at) AS first_expiry FROM upload_reservations
         WHERE user_id = $1 AND kind = 'cover' AND used_at IS NULL AND expires_at > $2`,
        [input.userId, now],
      );
      checkPendingCovers(pending!, maxPending, now);
      return insertReservation(tx, 'cover', { ...input, jobId: null }, now);
    }, userLock(input.userId));
  }

  async reserveImport(input: NewReservation & { jobId: string }, maxPending: number, now: number): Promise<Reservation> {
    return this.db.transaction(async (tx) => {
      // An upload URL still valid, or a file uploaded (or arriving), for an import not started yet.
      const pending = await tx.get<Pending>(
        `SELECT COUNT(*) AS n, MIN(CASE WHEN r.file_id IS NULL THEN r.expires_at END) AS first_expiry
         FROM upload_reservations r JOIN jobs j ON j.id = r.job_id
         WHERE r.user_id = $1 AND r.kind = 'import' AND j.status = 'pending' AND (r.expires_at > $2 OR r.file_id IS NOT NULL)`,
        [input.userId, now],
      );
      checkPendingImports(pending!, maxPending, now);
      return insertReservation(tx, 'import', { ...input, bookmarkId: null }, now);
    }, userLock(input.userId));
  }

  /** One conditional update takes the upload: of two claims of one URL at once (any instances), one wins. */
  async claimUpload(tokenHash: string, fileId: string, now: number): Promise<Reservation> {
    const claimed = await this.db.get<ReservationRow>(
      `UPDATE upload_reservations SET file_id = $1
       WHERE token_hash = $2 AND file_id IS NULL AND used_at IS NULL AND expires_at > $3 RETURNING *`,
      [fileId, tokenHash, now],
    );
    if (claimed) return toReservation(claimed);
    const row = await this.db.get<ReservationRow>('SELECT * FROM upload_reservations WHERE token_hash = $1', [tokenHash]);
    checkClaim(row, now);
    // Free again by the time it was read (the upload that took it failed and gave it back): try again.
    return this.claimUpload(tokenHash, fileId, now);
  }

  async releaseUpload(reservationId: string, fileId: string): Promise<void> {
    await this.db.run('UPDATE upload_reservations SET file_id = NULL WHERE id = $1 AND file_id = $2', [reservationId, fileId]);
  }

  async recordFile(reservationId: string, userId: string, file: NewFile, quotaBytes: number, now: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const row = await reservation(tx, reservationId);
      if (row?.file_id !== file.id) return false;
      if (row.kind === 'import') checkImportQuota((await usedBytes(tx, userId)) + file.size, quotaBytes);
      await tx.run(
        `INSERT INTO stored_files (id, user_id, kind, size, declared_type, detected_type, oversize, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [file.id, userId, row.kind, file.size, file.declaredType, file.detectedType, file.oversize ? 1 : 0, now],
      );
      return true;
    }, userLock(userId));
  }

  async saveCover(input: SaveCoverInput, now: number): Promise<{ freedFileId: string | null }> {
    return this.db.transaction(async (tx) => {
      const bookmark = await activeBookmark(tx, input.bookmarkId, input.userId);
      if (!bookmark) throw notFound('bookmark', input.bookmarkId);
      const fileId = savedUpload(await reservation(tx, input.reservationId), input, now);
      const file = coverFile(await storedFile(tx, fileId), input);
      const replaced = bookmark.cover_file_id === null ? undefined : await storedFile(tx, bookmark.cover_file_id);
      checkCoverQuota((await usedBytes(tx, input.userId)) - (replaced?.size ?? 0) + file.size, input.quotaBytes);

      await tx.run('UPDATE bookmarks SET cover_file_id = $1, cover_image = $2, updated_at = $3 WHERE id = $4', [file.id, input.url, now, input.bookmarkId]);
      await tx.run('UPDATE upload_reservations SET used_at = $1 WHERE id = $2', [now, input.reservationId]);
      await tx.run('UPDATE stored_files SET attached_at = $1 WHERE id = $2', [now, file.id]);
      return { freedFileId: (await forgetFiles(tx, replaced ? [replaced.id] : []))[0] ?? null };
    }, userLock(input.userId));
  }

  async deleteCover(userId: string, bookmarkId: string, now: number): Promise<{ freedFileId: string | null }> {
    return this.db.transaction(async (tx) => {
      const bookmark = await activeBookmark(tx, bookmarkId, userId);
      if (!bookmark) throw notFound('bookmark', bookmarkId);
      await tx.run(
        `UPDATE bookmarks SET cover_file_id = NULL, cover_image = NULL, updated_at = $1
         WHERE id = $2 AND (cover_file_id IS NOT NULL OR cover_image IS NOT NULL)`,
        [now, bookmarkId],
      );
      return { freedFileId: (await forgetFiles(tx, bookmark.cover_file_id === null ? [] : [bookmark.cover_file_id]))[0] ?? null };
    }, userLock(userId));
  }

  async servedCover(fileId: string): Promise<{ type: ImageType; size: number } | null> {
    const row = await this.db.get<{ detected_type: ImageType; size: number }>(
      `SELECT f.detected_type, f.size FROM stored_files f
       WHERE f.id = $1 AND f.kind = 'cover' AND f.detected_type IS NOT NULL
         AND EXISTS (SELECT 1 FROM bookmarks b WHERE b.cover_file_id = f.id)`,
      [fileId],
    );
    return row ? { type: row.detected_type, size: row.size } : null;
  }

  coverBytes(userId: string): Promise<number> {
    return coverBytes(this.db, userId);
  }

  async importFile(userId: string, jobId: string, fileId: string): Promise<{ size: number } | null> {
    const row = await this.db.get<{ size: number }>(
      `SELECT f.size FROM stored_files f JOIN upload_reservations r ON r.file_id = f.id
       WHERE f.id = $1 AND f.user_id = $2 AND f.kind = 'import' AND f.oversize = 0 AND r.job_id = $3`,
      [fileId, userId, jobId],
    );
    return row ?? null;
  }

  async deleteFile(fileId: string): Promise<boolean> {
    const owner = await this.db.get<{ user_id: string }>('SELECT user_id FROM stored_files WHERE id = $1', [fileId]);
    if (!owner) return false;
    return this.db.transaction(async (tx) => (await forgetFiles(tx, [fileId])).length > 0, userLock(owner.user_id));
  }

  async deleteImportFilesOfJob(jobId: string): Promise<string[]> {
    // Every reservation of a job is its user's; none, nothing to delete.
    const owner = await this.db.get<{ user_id: string }>('SELECT user_id FROM upload_reservations WHERE job_id = $1 LIMIT 1', [jobId]);
    if (!owner) return [];
    return this.db.transaction(async (tx) => {
      const rows = await tx.all<{ file_id: string | null }>(
        `DELETE FROM upload_reservations WHERE job_id = $1 AND kind = 'import' RETURNING file_id`,
        [jobId],
      );
      return forgetFiles(tx, rows.flatMap((r) => (r.file_id === null ? [] : [r.file_id])));
    }, userLock(owner.user_id));
  }

  async sweepExpired(now: number): Promise<string[]> {
    const freed = await this.sweep(SWEEPS.expired, [now]);
    // Import reservations go only when no file came through them; unsaved cover ones went with their file above.
    await this.db.run(
      `DELETE FROM upload_reservations WHERE expires_at <= $1
         AND (kind = 'cover' OR NOT EXISTS (SELECT 1 FROM stored_files f WHERE f.id = upload_reservations.file_id))`,
      [now],
    );
    return freed;
  }

  sweepOrphanCovers(): Promise<string[]> {
    return this.sweep(SWEEPS.orphans, []);
  }

  sweepImportFiles(cutoff: number): Promise<string[]> {
    return this.sweep(SWEEPS.importFiles, [cutoff]);
  }

  async knownFiles(ids: string[]): Promise<Set<string>> {
    const rows = await this.db.all<{ id: string }>('SELECT id FROM stored_files WHERE id = ANY($1::text[])', [ids]);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Forgets the files a sweep statement finds, one user at a time under that user's lock; the
   * statement runs again inside it, so that what a save or delete changed meanwhile is seen.
   */
  private async sweep(candidates: string, params: unknown[]): Promise<string[]> {
    const users = await this.db.all<{ user_id: string }>(`SELECT DISTINCT user_id FROM (${candidates}) c`, params);
    const freed: string[] = [];
    for (const { user_id: userId } of users) {
      const ids = await this.db.transaction(async (tx) => {
        const rows = await tx.all<{ id: string }>(`SELECT id FROM (${candidates}) c WHERE user_id = $${params.length + 1}`, [...params, userId]);
        return forgetFiles(tx, rows.map((r) => r.id));
      }, userLock(userId));
      freed.push(...ids);
    }
    return freed;
  }
}

function activeBookmark(sql: Sql, bookmarkId: string, userId: string): Promise<{ cover_file_id: string | null } | undefined> {
  return sql.get('SELECT cover_file_id FROM bookmarks WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL', [bookmarkId, userId]);
}

function reservation(sql: Sql, id: string): Promise<ReservationRow | undefined> {
  return sql.get<ReservationRow>('SELECT * FROM upload_reservations WHERE id = $1', [id]);
}

function storedFile(sql: Sql, id: string): Promise<FileRow | undefined> {
  return sql.get<FileRow>('SELECT * FROM stored_files WHERE id = $1', [id]);
}

async function insertReservation(
  sql: Sql,
  kind: UploadKind,
  input: NewReservation & { bookmarkId: string | null; jobId: string | null },
  now: number,
): Promise<Reservation> {
  const row = await sql.get<ReservationRow>(
    `INSERT INTO upload_reservations (id, token_hash, user_id, kind, bookmark_id, job_id, max_bytes, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [newId('rsv'), input.tokenHash, input.userId, kind, input.bookmarkId, input.jobId, input.maxBytes, now, input.expiresAt],
  );
  return toReservation(row!);
}

async function coverBytes(sql: Sql, userId: string): Promise<number> {
  const row = await sql.get<{ total: number }>(
    `SELECT COALESCE(SUM(f.size), 0) AS total FROM bookmarks b JOIN stored_files f ON f.id = b.cover_file_id WHERE b.user_id = $1`,
    [userId],
  );
  return row!.total;
}

/** What counts against the storage quota: covers, and import files waiting for (or read by) their job. */
async function usedBytes(sql: Sql, userId: string): Promise<number> {
  // Import files are deleted once their job ends; until then they take room like covers.
  const imports = await sql.get<{ total: number }>(
    `SELECT COALESCE(SUM(size), 0) AS total FROM stored_files WHERE user_id = $1 AND kind = 'import'`,
    [userId],
  );
  return (await coverBytes(sql, userId)) + imports!.total;
}

/**
 * Deletes file records with the reservations they came through and any cover reference to
 * them; answers the ids that existed. Runs inside the caller's transaction.
 */
async function forgetFiles(sql: Sql, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  await sql.run('DELETE FROM upload_reservations WHERE file_id = ANY($1::text[])', [ids]);
  await sql.run('UPDATE bookmarks SET cover_file_id = NULL, cover_image = NULL WHERE cover_file_id = ANY($1::text[])', [ids]);
  const gone = await sql.all<{ id: string }>('DELETE FROM stored_files WHERE id = ANY($1::text[]) RETURNING id', [ids]);
  return gone.map((r) => r.id);
}
