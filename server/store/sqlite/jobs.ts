import type { Db } from '../../db/database.ts';
import { newId } from '../../ids.ts';
import type {
  ExportBookmarkRow,
  ExportCollectionRow,
  ExportPageOptions,
  ImportWriter,
  JobRecord,
  JobStatus,
  JobType,
  JobsStore,
  SkippedReason,
  SkippedSummary,
} from '../jobs.ts';
import { SqliteImportWriter } from './jobs-import.ts';
import { exportCollections, exportPages } from './jobs-library.ts';

interface JobRow {
  id: string;
  user_id: string;
  type: JobType;
  status: JobStatus;
  progress: number;
  format: string | null;
  storage_id: string | null;
  position: number;
  imported: number;
  skipped: number;
  duplicates: number;
  skipped_reasons: string | null;
  error_message: string | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  expires_at: number | null;
  files_removed: number;
  lease_owner: string | null;
}

/** skipped_reasons holds the summary; jobs completed before there were counts hold only the reasons' array. */
function readSummary(json: string): SkippedSummary {
  const stored = JSON.parse(json) as SkippedSummary | SkippedReason[];
  return Array.isArray(stored) ? { reasons: stored, counts: [] } : stored;
}

const toRecord = (r: JobRow): JobRecord => ({
  id: r.id,
  userId: r.user_id,
  type: r.type,
  status: r.status,
  progress: r.progress,
  format: r.format,
  storageId: r.storage_id,
  position: r.position,
  counts: { imported: r.imported, skipped: r.skipped, duplicates: r.duplicates },
  skipped: r.skipped_reasons === null ? null : readSummary(r.skipped_reasons),
  errorMessage: r.error_message,
  createdAt: r.created_at,
  startedAt: r.started_at,
  completedAt: r.completed_at,
  expiresAt: r.expires_at,
  filesRemoved: r.files_removed === 1,
  leaseOwner: r.lease_owner,
});

/** A job some instance must still run. */
const LEFT_TO_RUN = "(status = 'running' OR (status = 'pending' AND type = 'export'))";

/** A list of ids bound as one JSON parameter. */
const IN_IDS = 'IN (SELECT value FROM json_each(?))';

export class SqliteJobs implements JobsStore {
  private q;

  constructor(private db: Db) {
    this.q = {
      byId: db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?'),
      owned: db.prepare<[string, string], JobRow>('SELECT * FROM jobs WHERE id = ? AND user_id = ?'),
      progress: db.prepare<[number, string]>("UPDATE jobs SET progress = ? WHERE id = ? AND status = 'running'"),
      format: db.prepare<[string, string]>('UPDATE jobs SET format = ? WHERE id = ?'),
    };
  }

  async create(input: { userId: string; type: JobType; format: string | null }, now: number): Promise<JobRecord> {
    const id = newId('job');
    this.db
      .prepare("INSERT INTO jobs (id, user_id, type, status, format, created_at) VALUES (?, ?, ?, 'pending', ?, ?)")
      .run(id, input.userId, input.type, input.format, now);
    return toRecord(this.q.byId.get(id)!);
  }

  async get(userId: string, id: string): Promise<JobRecord | null> {
    const row = this.q.owned.get(id, userId);
    return row ? toRecord(row) : null;
  }

  async find(id: string): Promise<JobRecord | null> {
    const row = this.q.byId.get(id);
    return row ? toRecord(row) : null;
  }

  async startImport(userId: string, id: string, storageId: string, now: number): Promise<JobRecord | null> {
    const started = this.db
      .prepare(
        `UPDATE jobs SET status = 'running', storage_id = ?, started_at = ?, progress = 0
         WHERE id = ? AND user_id = ? AND type = 'import' AND status = 'pending'`,
      )
      .run(storageId, now, id, userId).changes;
    return started === 1 ? toRecord(this.q.byId.get(id)!) : null;
  }

  async claim(id: string, owner: string, until: number, at: number): Promise<JobRecord | null> {
    // One statement: SQLite runs it under the write lock, so two instances cannot both see the job free.
    const row = this.db
      .prepare<[{ id: string; owner: string; until: number; at: number }], JobRow>(
        `UPDATE jobs SET lease_owner = @owner, lease_until = @until
         WHERE id = @id AND ${LEFT_TO_RUN} AND (lease_owner IS NULL OR lease_owner = @owner OR lease_until <= @at)
         RETURNING *`,
      )
      .get({ id, owner, until, at });
    return row ? toRecord(row) : null;
  }

  async renewLease(id: string, owner: string, until: number): Promise<boolean> {
    return this.db.prepare('UPDATE jobs SET lease_until = ? WHERE id = ? AND lease_owner = ?').run(until, id, owner).changes === 1;
  }

  async releaseLease(id: string, owner: string): Promise<void> {
    this.db.prepare('UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?').run(id, owner);
  }

  async startExport(id: string, owner: string, now: number): Promise<void> {
    this.db
      .prepare("UPDATE jobs SET status = 'running', progress = 0, started_at = ? WHERE id = ? AND lease_owner = ? AND status IN ('pending', 'running')")
      .run(now, id, owner);
  }

  async setProgress(id: string, progress: number): Promise<void> {
    this.q.progress.run(progress, id);
  }

  async setFormat(id: string, format: string): Promise<void> {
    this.q.format.run(format, id);
  }

  async completeExport(id: string, owner: string, now: number, expiresAt: number): Promise<void> {
    this.db
      .prepare(
        "UPDATE jobs SET status = 'completed', progress = 100, completed_at = ?, expires_at = ? WHERE id = ? AND lease_owner = ? AND status = 'running'",
      )
      .run(now, expiresAt, id, owner);
  }

  async completeImport(id: string, owner: string, extra: { skipped: number; summary: SkippedSummary }, now: number): Promise<boolean> {
    const completed = this.db
      .prepare(
        `UPDATE jobs SET status = 'completed', progress = 100, completed_at = ?, skipped = skipped + ?, skipped_reasons = ?
         WHERE id = ? AND lease_owner = ? AND status = 'running'`,
      )
      .run(now, extra.skipped, JSON.stringify(extra.summary), id, owner).changes;
    return completed === 1;
  }

  async fail(id: string, owner: string, message: string, now: number): Promise<void> {
    this.db
      .prepare(
        "UPDATE jobs SET status = 'failed', error_message = ?, completed_at = ? WHERE id = ? AND lease_owner = ? AND status IN ('pending', 'running')",
      )
      .run(message, now, id, owner);
  }

  async interrupted(at: number): Promise<JobRecord[]> {
    return this.db
      .prepare<[number], JobRow>(`SELECT * FROM jobs WHERE ${LEFT_TO_RUN} AND (lease_owner IS NULL OR lease_until <= ?) ORDER BY created_at`)
      .all(at)
      .map(toRecord);
  }

  async filesToRemove(now: number): Promise<JobRecord[]> {
    return this.db
      .prepare<[number], JobRow>(
        `SELECT * FROM jobs WHERE files_removed = 0
           AND (status = 'failed' OR (status = 'completed' AND (type = 'import' OR expires_at <= ?)))`,
      )
      .all(now)
      .map(toRecord);
  }

  async markFilesRemoved(ids: readonly string[]): Promise<void> {
    this.db.prepare(`UPDATE jobs SET files_removed = 1 WHERE id ${IN_IDS}`).run(JSON.stringify(ids));
  }

  async expired(cutoffs: { unstartedImport: number; retention: number }): Promise<JobRecord[]> {
    return this.db
      .prepare<[number, number], JobRow>(
        `SELECT * FROM jobs WHERE (type = 'import' AND status = 'pending' AND created_at <= ?)
           OR (status != 'running' AND created_at <= ?)`,
      )
      .all(cutoffs.unstartedImport, cutoffs.retention)
      .map(toRecord);
  }

  async delete(ids: readonly string[]): Promise<string[]> {
    return this.db
      .prepare<[string], string>(`DELETE FROM jobs WHERE id ${IN_IDS} AND status != 'running' RETURNING id`)
      .pluck()
      .all(JSON.stringify(ids));
  }

  async exportCollections(userId: string): Promise<ExportCollectionRow[]> {
    return exportCollections(this.db, userId);
  }

  exportPages(userId: string, options: ExportPageOptions): AsyncIterable<ExportBookmarkRow[]> {
    return exportPages(this.db, userId, options);
  }

  async importWriter(job: JobRecord): Promise<ImportWriter> {
    return new SqliteImportWriter(this.db, job);
  }
}
