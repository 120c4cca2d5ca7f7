import type { z } from 'zod';
import type { ExportFormat, Job, StartImportBody } from '../../lib/api/jobs.ts';
import { ApiError, conflict, notFound } from '../http/api-error.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { JobDeps } from './deps.ts';
import { scheduleJob } from './schedule.ts';
import { toJob } from './view.ts';

/** POST /export/:format: the job is created pending and runs off the request. */
export async function startExport(deps: JobDeps, userId: string, format: ExportFormat): Promise<{ jobId: string }> {
  const job = await deps.store.jobs.create({ userId, type: 'export', format }, deps.clock.now());
  scheduleJob(deps, job.id);
  return { jobId: job.id };
}

/** POST /import/reserve: a pending import job and the one-use URL its file is uploaded to. */
export async function reserveImport(deps: JobDeps, userId: string, origin: string): Promise<{ jobId: string; uploadUrl: string }> {
  const job = await deps.store.jobs.create({ userId, type: 'import', format: null }, deps.clock.now());
  try {
    const { uploadUrl } = await deps.storage.reserveImport(userId, job.id, origin);
    return { jobId: job.id, uploadUrl };
  } catch (err) {
    // Refused (too many pending imports): no job is left behind.
    await deps.store.jobs.delete([job.id]);
    throw err;
  }
}

const alreadyStarted = (job: JobRecord): ApiError =>
  conflict(`import job ${job.id} was already started (it is ${job.status}); reserve a new import to import again`);

/**
 * POST /import/start: the user's pending import, with the file uploaded through its own
 * uploadUrl, starts running. The job's state is checked before the file, so that a job
 * that already ran says so even though its file is gone.
 */
export async function startImport(deps: JobDeps, userId: string, body: z.output<typeof StartImportBody>): Promise<Job> {
  const { store, storage, clock } = deps;
  const job = await store.jobs.get(userId, body.jobId);
  if (job === null) throw notFound('job', body.jobId);
  if (job.type !== 'import') throw conflict(`job ${job.id} is an export job; start an import with the jobId POST /import/reserve answered`);
  if (job.status !== 'pending') throw alreadyStarted(job);
  if ((await storage.openImportFile(userId, job.id, body.storageId)) === null) {
    throw new ApiError(
      'RESERVATION_INVALID',
      `storageId ${body.storageId} is not a file uploaded through this import job's uploadUrl; upload the file there and use the storageId it answers`,
    );
  }
  const started = await store.jobs.startImport(userId, job.id, body.storageId, clock.now());
  if (started === null) throw alreadyStarted({ ...job, status: 'running' });
  scheduleJob(deps, started.id);
  return toJob(started);
}

/** GET /jobs/:id: the user's own jobs only. */
export async function getJob(deps: JobDeps, userId: string, id: string): Promise<Job> {
  const job = await deps.store.jobs.get(userId, id);
  if (job === null) throw notFound('job', id);
  return toJob(job);
}
