import type { JobDeps } from './deps.ts';
import { runExport } from './export-job.ts';
import { runImport } from './import-job.ts';
import { holdJob } from './lease.ts';

/**
 * Queues a job on the runner. `resumed`: a server restart (or another instance's death)
 * interrupted it, which changes only what a failed import says when its file is gone.
 */
export function scheduleJob(deps: JobDeps, jobId: string, resumed = false): void {
  deps.jobRunner.enqueue(jobId, (signal) => runJob(deps, jobId, signal, resumed));
}

/** Runs the job if this instance can take it: finished jobs and jobs another instance holds are left alone. */
async function runJob(deps: JobDeps, jobId: string, stopping: AbortSignal, resumed: boolean): Promise<void> {
  const { store, storage, clock, instanceId } = deps;
  const held = await holdJob(deps, jobId, stopping);
  if (held === null) return;
  const { job, signal } = held;
  try {
    if (job.type === 'export') await runExport(deps, job);
    else await runImport(deps, job, signal, resumed);
  } catch (err) {
    console.error(`${job.type} job ${jobId} failed:`, err);
    await store.jobs.fail(jobId, instanceId, `The ${job.type} failed on the server; start a new one`, clock.now());
    if (job.type === 'import') await storage.deleteImportFilesOfJob(jobId);
  } finally {
    await held.release();
  }
}
