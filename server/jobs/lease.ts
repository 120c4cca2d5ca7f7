import { randomBytes } from 'node:crypto';
import type { JobRecord } from '../store/jobs.ts';
import type { JobDeps } from './deps.ts';

/** A job this instance holds, renewed while it runs. */
export interface HeldJob {
  job: JobRecord;
  /**
   * This attempt's lease token, `<instance id>.<random>`: every write of the run is fenced on it,
   * so that neither another instance nor an earlier attempt of this one that lost the lease (and
   * has not noticed yet) can write, complete or fail the job.
   */
  owner: string;
  /** Aborted when the runner stops or the lease is lost (it lapsed and another instance took the job). */
  signal: AbortSignal;
  /** Stops renewing and lets go of the job, so that another instance may take it at once. */
  release(): Promise<void>;
}

/**
 * Takes the job for this attempt (see JobsStore.claim), or answers null when it is done or
 * another holds it. The lease is renewed three times per lease period, so a renewal may fail
 * twice before the lease lapses. Lease times are the database's clock (the store reads it),
 * real time, not the test clock: a lease is about this process being alive, and the test
 * clock jumps ahead by days.
 */
export async function holdJob(deps: JobDeps, jobId: string, stopping: AbortSignal): Promise<HeldJob | null> {
  const { store, instanceId, config } = deps;
  const leaseMs = config.jobLeaseMs;
  const owner = `${instanceId}.${randomBytes(6).toString('hex')}`;
  const job = await store.jobs.claim(jobId, owner, leaseMs);
  if (job === null) return null;

  const lost = new AbortController();
  const renew = async () => {
    try {
      if (!(await store.jobs.renewLease(jobId, owner, leaseMs))) {
        // Lost for good: another attempt holds it now, so renewing again would only be noise in the database.
        clearInterval(timer);
        lost.abort(new Error(`job ${jobId}: its lease was lost to another instance`));
      }
    } catch (err) {
      console.error(`job ${jobId}: renewing its lease failed:`, err);
    }
  };
  const timer = setInterval(() => void renew(), leaseMs / 3);
  timer.unref();
  return {
    job,
    owner,
    signal: AbortSignal.any([stopping, lost.signal]),
    release: async () => {
      clearInterval(timer);
      await store.jobs.releaseLease(jobId, owner);
    },
  };
}
