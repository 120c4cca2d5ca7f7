import { DAY } from '../clock.ts';
import type { JobRecord } from '../store/jobs.ts';
import { isArtifactOf } from './artifacts.ts';
import type { JobDeps } from './deps.ts';

/** An import reserved and never started is forgotten after this long. */
export const UNSTARTED_IMPORT_TTL_MS = DAY;
/** Every job is forgotten this long after it was created. */
export const JOB_RETENTION_MS = 30 * DAY;

/**
 * The maintenance task: removes the files finished jobs no longer need (expired export
 * artifacts, import files, what failed jobs left), keeping the job rows so that GET /jobs/:id
 * still answers; then deletes imports never started and jobs past retention.
 */
export async function sweepJobs(deps: JobDeps, now: number): Promise<void> {
  const { store } = deps;
  const finished = await store.jobs.filesToRemove(now);
  const exportFiles = finished.some((job) => job.type === 'export') ? await store.exports.list() : [];
  for (const job of finished) await removeFiles(deps, job, exportFiles);
  await store.jobs.markFilesRemoved(finished.map((job) => job.id));

  const expired = await store.jobs.expired({ unstartedImport: now - UNSTARTED_IMPORT_TTL_MS, retention: now - JOB_RETENTION_MS });
  const deleted = new Set(await store.jobs.delete(expired.map((job) => job.id)));
  const gone = expired.filter((job) => deleted.has(job.id) && !job.filesRemoved);
  const goneExportFiles = gone.some((job) => job.type === 'export') ? await store.exports.list() : [];
  for (const job of gone) await removeFiles(deps, job, goneExportFiles);
}

/** `exportFiles`: the store's export files, listed once per sweep; an export job's are those of all its attempts (one that lost its lease may have left one). */
async function removeFiles({ storage, store }: JobDeps, job: JobRecord, exportFiles: readonly string[]): Promise<void> {
  if (job.type === 'import') await storage.deleteImportFilesOfJob(job.id);
  else {
    // The listing leaves out files written lately (PostgreSQL lists only those no writer can still be adding to):
    // the completed attempt's own file, which the job names, goes whatever its age.
    const named = job.storageId ? [job.storageId] : [];
    await store.exports.remove(new Set([...named, ...exportFiles.filter((name) => isArtifactOf(job.id, name))]));
  }
}
