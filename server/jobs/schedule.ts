import type { JobDeps } from './deps.ts';
import { runExport } from './export-job.ts';
import { runImport } from './import-job.ts';

/**
 * Queues a job on the runner. `resumed`: a server restart interrupted it, which
 * changes only what a failed import says when its file is gone.
 */
export function scheduleJob(deps: JobDeps, jobId: string, resumed = false): void {
  deps.jobRunner.enqueue(jobId, (signal) => runJob(deps, jobId, signal, resumed));
}

async function runJob(deps: JobDeps, jobId: string, signal: AbortSignal, resumed: boolean): Promise<void> {
  const { store, storage, clock } = deps;
  const job = await store.jobs.find(jobId);
  if (job === null || job.status === 'completed' || job.status === 'failed') return;
  try {
    if (job.type === 'export') await runExport(deps, job);
    else await runImport(deps, job, signal, resumed);
  } catch (err) {
    console.error(`${job.type} job ${jobId} failed:`, err);
    await store.jobs.fail(jobId, `The ${job.type} failed on the server; start a new one`, clock.now());
    if (job.type === 'import') await storage.deleteImportFilesOfJob(jobId);
  }
}
