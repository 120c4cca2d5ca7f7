import type { JobDeps } from './deps.ts';
import { scheduleJob } from './schedule.ts';

/**
 * At start: the jobs a stopped (or killed) server left unfinished run again. An import
 * resumes after its last committed batch; an export starts over. Answers how many.
 */
export async function resumeInterruptedJobs(deps: JobDeps): Promise<number> {
  const jobs = await deps.store.jobs.interrupted();
  for (const job of jobs) scheduleJob(deps, job.id, true);
  return jobs.length;
}
