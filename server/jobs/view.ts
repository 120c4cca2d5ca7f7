import type { Job } from '../../lib/api/jobs.ts';
import { iso } from '../clock.ts';
import type { JobRecord } from '../store/jobs.ts';

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** The API's view of a job: errorMessage only when failed, expiresAt for exports, result once an import completed. */
export function toJob(r: JobRecord): Job {
  const job: Job = { id: r.id, type: r.type, status: r.status, progress: r.progress, createdAt: iso(r.createdAt) };
  if (r.format !== null) job.format = r.format;
  if (r.status === 'failed') job.errorMessage = r.errorMessage ?? `The ${r.type} failed; start a new one`;
  job.completedAt = isoOrNull(r.completedAt);
  if (r.type === 'export') job.expiresAt = isoOrNull(r.expiresAt);
  if (r.type === 'import' && r.status === 'completed') {
    job.result = r.counts;
    job.skippedReasons = r.skipped?.reasons ?? [];
    job.skippedCounts = r.skipped?.counts ?? [];
    job.collectionsCapped = r.skipped?.collectionsCapped ?? 0;
  }
  return job;
}
