import { BackendUnavailable } from '../backend-unavailable.ts';
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
  const { store, storage, clock } = deps;
  const held = await holdJob(deps, jobId, stopping);
  if (held === null) return;
  const { job, owner, signal } = held;
  try {
    if (job.type === 'export') await runExport(deps, held);
    else await runImport(deps, held, resumed);
  } catch (err) {
    // A run stopped (the lease lost, the server stopping) or cut off by an outage is not a failure
    // of the job: it is left to run, and its next holder goes on from the checkpoint.
    if (signal.aborted || err instanceof BackendUnavailable) {
      console.error(`${job.type} job ${jobId} stopped, to be resumed: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    console.error(`${job.type} job ${jobId} failed:`, err);
    const failed = await store.jobs.fail(jobId, owner, `The ${job.type} failed on the server; start a new one`, clock.now());
    // An attempt that lost the job leaves its file to the holder that reads it now.
    if (failed && job.type === 'import') await storage.deleteImportFilesOfJob(jobId);
  } finally {
    // Its lease lapses by itself when the database cannot be told.
    await held.release().catch((err: unknown) => console.error(`job ${jobId}: letting go of its lease failed:`, err));
  }
}
