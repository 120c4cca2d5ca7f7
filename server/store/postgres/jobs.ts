import type { Pg } from '../../db/postgres/pg.ts';
import { newId } from '../../ids.ts';
import type { ExportBookmarkRow, ExportCollectionRow, ExportPageOptions, ImportWriter, JobRecord, JobType, JobsStore, SkippedSummary } from '../jobs.ts';
import { type JobRow, LEFT_TO_RUN, toRecord } from '../shared/job-rows.ts';
import { PgImportWriter } from './jobs-import.ts';
import { exportCollections, exportPages } from './jobs-library.ts';

/**
 * Now in ms on the database's clock, the one clock every instance shares: a lease is never
 * taken early, or held too long, because one machine's clock is off. clock_timestamp(), not
 * now(): the time of the statement, not of its transaction's start.
 */
const DB_NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

export class PgJobs implements JobsStore {
  constructor(private db: Pg) {}

  async create(input: { userId: string; type: JobType; format: string | null }, now: number): Promise<JobRecord> {
    const row = await this.db.get<JobRow>(
      "INSERT INTO jobs (id, user_id, type, status, format, created_at) VALUES ($1, $2, $3, 'pending', $4, $5) RETURNING *",
      [newId('job'), input.userId, input.type, input.format, now],
    );
    return toRecord(row!);
  }

  async get(userId: string, id: string): Promise<JobRecord | null> {
    return this.record('SELECT * FROM jobs WHERE id = $1 AND user_id = $2', [id, userId]);
  }

  async find(id: string): Promise<JobRecord | null> {
    return this.record('SELECT * FROM jobs WHERE id = $1', [id]);
  }

  async startImport(userId: string, id: string, storageId: string, now: number): Promise<JobRecord | null> {
    return this.record(
      `UPDATE jobs SET status = 'running', storage_id = $1, started_at = $2, progress = 0
       WHERE id = $3 AND user_id = $4 AND type = 'import' AND status = 'pending' RETURNING *`,
      [storageId, now, id, userId],
    );
  }

  async claim(id: string, owner: string, leaseMs: number): Promise<JobRecord | null> {
    // One statement: the row lock it takes makes a second instance's UPDATE wait, then re-check the lease and find it held.
    return this.record(
      `UPDATE jobs SET lease_owner = $2, lease_until = ${DB_NOW_MS} + $3
       WHERE id = $1 AND ${LEFT_TO_RUN} AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until <= ${DB_NOW_MS})
       RETURNING *`,
      [id, owner, leaseMs],
    );
  }

  async renewLease(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return (await this.db.run(`UPDATE jobs SET lease_until = ${DB_NOW_MS} + $1 WHERE id = $2 AND lease_owner = $3`, [leaseMs, id, owner])) === 1;
  }

  async releaseLease(id: string, owner: string): Promise<void> {
    await this.db.run('UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', [id, owner]);
  }

  async startExport(id: string, owner: string, now: number): Promise<void> {
    await this.db.run(
      "UPDATE jobs SET status = 'running', progress = 0, started_at = $1 WHERE id = $2 AND lease_owner = $3 AND status IN ('pending', 'running')",
      [now, id, owner],
    );
  }

  async setProgress(id: string, progress: number): Promise<void> {
    await this.db.run("UPDATE jobs SET progress = $1 WHERE id = $2 AND status = 'running'", [progress, id]);
  }

  async setFormat(id: string, format: string): Promise<void> {
    await this.db.run('UPDATE jobs SET format = $1 WHERE id = $2', [format, id]);
  }

  async completeExport(id: string, owner: string, artifact: string, now: number, expiresAt: number): Promise<boolean> {
    const completed = await this.db.run(
      `UPDATE jobs SET status = 'completed', progress = 100, storage_id = $1, completed_at = $2, expires_at = $3
       WHERE id = $4 AND lease_owner = $5 AND status = 'running'`,
      [artifact, now, expiresAt, id, owner],
    );
    return completed === 1;
  }

  async completeImport(id: string, owner: string, extra: { skipped: number; summary: SkippedSummary }, now: number): Promise<boolean> {
    const completed = await this.db.run(
      `UPDATE jobs SET status = 'completed', progress = 100, completed_at = $1, skipped = skipped + $2, skipped_reasons = $3
       WHERE id = $4 AND lease_owner = $5 AND status = 'running'`,
      [now, extra.skipped, JSON.stringify(extra.summary), id, owner],
    );
    return completed === 1;
  }

  async fail(id: string, owner: string, message: string, now: number): Promise<boolean> {
    const failed = await this.db.run(
      "UPDATE jobs SET status = 'failed', error_message = $1, completed_at = $2 WHERE id = $3 AND lease_owner = $4 AND status IN ('pending', 'running')",
      [message, now, id, owner],
    );
    return failed === 1;
  }

  async interrupted(): Promise<JobRecord[]> {
    return this.records(`SELECT * FROM jobs WHERE ${LEFT_TO_RUN} AND (lease_owner IS NULL OR lease_until <= ${DB_NOW_MS}) ORDER BY created_at`, []);
  }

  async filesToRemove(now: number): Promise<JobRecord[]> {
    return this.records(
      `SELECT * FROM jobs WHERE files_removed = 0
         AND (status = 'failed' OR (status = 'completed' AND (type = 'import' OR expires_at <= $1)))`,
      [now],
    );
  }

  async markFilesRemoved(ids: readonly string[]): Promise<void> {
    await this.db.run('UPDATE jobs SET files_removed = 1 WHERE id = ANY($1)', [ids]);
  }

  async expired(cutoffs: { unstartedImport: number; retention: number }): Promise<JobRecord[]> {
    return this.records(
      `SELECT * FROM jobs WHERE (type = 'import' AND status = 'pending' AND created_at <= $1)
         OR (status != 'running' AND created_at <= $2)`,
      [cutoffs.unstartedImport, cutoffs.retention],
    );
  }

  async delete(ids: readonly string[]): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>("DELETE FROM jobs WHERE id = ANY($1) AND status != 'running' RETURNING id", [ids]);
    return rows.map((r) => r.id);
  }

  async exportCollections(userId: string): Promise<ExportCollectionRow[]> {
    return exportCollections(this.db, userId);
  }

  exportPages(userId: string, options: ExportPageOptions): AsyncIterable<ExportBookmarkRow[]> {
    return exportPages(this.db, userId, options);
  }

  async importWriter(job: JobRecord): Promise<ImportWriter> {
    return new PgImportWriter(this.db, job);
  }

  private async record(text: string, params: readonly unknown[]): Promise<JobRecord | null> {
    const row = await this.db.get<JobRow>(text, params);
    return row ? toRecord(row) : null;
  }

  private async records(text: string, params: readonly unknown[]): Promise<JobRecord[]> {
    return (await this.db.all<JobRow>(text, params)).map(toRecord);
  }
}
