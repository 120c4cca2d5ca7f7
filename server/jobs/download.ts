import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { iso } from '../clock.ts';
import { ApiError, conflict, notFound } from '../http/api-error.ts';
import type { AppEnv } from '../http/env.ts';
import { EXPORT_FILE_TYPES } from '../interchange/write.ts';
import type { JobRecord } from '../store/jobs.ts';
import { artifactName, exportFormatOf } from './artifacts.ts';
import type { JobDeps } from './deps.ts';

const notReady = (job: JobRecord): ApiError =>
  new ApiError(
    'JOB_NOT_READY',
    job.status === 'failed'
      ? `export job ${job.id} failed, so it has no file (${job.errorMessage ?? 'no reason recorded'}); start a new export`
      : `export job ${job.id} is ${job.status} (${job.progress}%); poll GET /jobs/${job.id} until it is completed, then download`,
  );

const expired = (job: JobRecord): ApiError =>
  notFound(
    `the export ${job.id} expired${job.expiresAt === null ? '' : ` at ${iso(job.expiresAt)}`} ` +
      '(export files are kept 2 hours after the job completes); start a new one',
  );

/** POST /jobs/:id/download: streams a completed, unexpired export of the user. */
export async function downloadExport({ store, clock }: JobDeps, userId: string, id: string, c: Context<AppEnv>): Promise<Response> {
  const job = await store.jobs.get(userId, id);
  if (job === null) throw notFound('job', id);
  if (job.type !== 'export') throw conflict(`job ${id} is an import job; only export jobs have a file to download`);
  if (job.status !== 'completed') throw notReady(job);
  if (job.expiresAt === null || job.expiresAt <= clock.now() || job.filesRemoved) throw expired(job);

  const file = await store.exports.open(artifactName(job));
  if (file === null) throw expired(job);
  const { size, stream } = file;
  const { contentType, extension } = EXPORT_FILE_TYPES[exportFormatOf(job)];
  const day = iso(job.completedAt ?? job.createdAt).slice(0, 10);
  return c.body(Readable.toWeb(stream) as ReadableStream<Uint8Array>, 200, {
    'Content-Type': contentType,
    'Content-Disposition': `attachment; filename="shelf-export-${day}.${extension}"`,
    'Content-Length': String(size),
  });
}
