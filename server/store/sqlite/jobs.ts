import type { Db } from '../../db/database.ts';
import { newId } from '../../ids.ts';
import type { ExportBookmarkRow, ExportCollectionRow, ExportPageOptions, ImportWriter, JobRecord, JobType, JobsStore, SkippedSummary } from '../jobs.ts';
import { type JobRow, LEFT_TO_RUN, toRecord } from '../shared/job-rows.ts';
import { SqliteImportWriter } from './jobs-import.ts';
import { exportCollections, exportPages } from './jobs-library.ts';

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

  /**
   * SQLite has no clock of its own: its time functions read the clock of the process running
   * it, so the database's clock is Date.now() here, and every process sharing one SQLite file
   * shares one machine's clock.
   */
  async claim(id: string, owner: string, leaseMs: number): Promise<JobRecord | null> {
    const at = Date.now();
    const until = at + leaseMs;
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

  async renewLease(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return this.db.prepare('UPDATE jobs SET lease_until = ? WHERE id = ? AND lease_owner = ?').run(Date.now() + leaseMs, id, owner).changes === 1;
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

  async completeExport(id: string, owner: string, artifact: string, now: number, expiresAt: number): Promise<boolean> {
    const completed = this.db
      .prepare(
        `UPDATE jobs SET status = 'completed', progress = 100, storage_id = ?, completed_at = ?, expires_at = ?
         WHERE id = ? AND lease_owner = ? AND status = 'running'`,
      )
      .run(artifact, now, expiresAt, id, owner).changes;
    return completed === 1;
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

  async fail(id: string, owner: string, message: string, now: number): Promise<boolean> {
    const failed = this.db
      .prepare(
        "UPDATE jobs SET status = 'failed', error_message = ?, completed_at = ? WHERE id = ? AND lease_owner = ? AND status IN ('pending', 'running')",
      )
      .run(message, now, id, owner).changes;
    return failed === 1;
  }

  async interrupted(): Promise<JobRecord[]> {
    return this.db
      .prepare<[number], JobRow>(`SELECT * FROM jobs WHERE ${LEFT_TO_RUN} AND (lease_owner IS NULL OR lease_until <= ?) ORDER BY created_at`)
      .all(Date.now())
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
