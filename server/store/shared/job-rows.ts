import type { JobRecord, JobStatus, JobType, SkippedReason, SkippedSummary } from '../jobs.ts';

/** A jobs row as both backends read it (the same columns and values). */
export interface JobRow {
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

export const toRecord = (r: JobRow): JobRecord => ({
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

/** A job some instance must still run (SQL over the jobs table, the same in both dialects). */
export const LEFT_TO_RUN = "(status = 'running' OR (status = 'pending' AND type = 'export'))";
