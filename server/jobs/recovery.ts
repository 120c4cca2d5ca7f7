import type { JobDeps } from './deps.ts';
import { scheduleJob } from './schedule.ts';

/**
 * The jobs left to run that no instance holds: those a stopped server left unfinished,
 * those whose instance died (its lease lapsed), and exports nobody took yet. Each is queued
 * here; running it takes it first (see holdJob), so an instance that is quicker wins and no
 * job runs twice. An import resumes after its last committed batch; an export starts over.
 * Answers how many were queued.
 */
export async function resumeInterruptedJobs(deps: JobDeps): Promise<number> {
  const jobs = await deps.store.jobs.interrupted();
  for (const job of jobs) scheduleJob(deps, job.id, true);
  return jobs.length;
}

/** Looks for such jobs as often as a lease is renewed, so that a dead instance's jobs go on within about a lease period. Answers the stop. */
export function watchForInterruptedJobs(deps: JobDeps): () => void {
  const timer = setInterval(() => {
    resumeInterruptedJobs(deps).catch((err: unknown) => console.error('looking for interrupted jobs failed:', err));
  }, deps.config.jobLeaseMs / 3);
  timer.unref();
  return () => clearInterval(timer);
}
