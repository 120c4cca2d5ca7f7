import { type ExportFormat, ExportFormat as ExportFormatSchema } from '../../lib/api/jobs.ts';
import { HOUR } from '../clock.ts';
import { EXPORT_FILE_TYPES } from '../interchange/write.ts';
import type { FileBytes } from '../store/files.ts';
import type { JobRecord } from '../store/jobs.ts';

/** The spec's "an export artifact expires 2 hours after the job completes". */
export const EXPORT_TTL_MS = 2 * HOUR;

export const exportFormatOf = (job: JobRecord): ExportFormat => ExportFormatSchema.parse(job.format);

/**
 * An export attempt's file, among the store's exports: `<job id>.<attempt>.<extension>` (on
 * disk, <dataDir>/exports/), `attempt` the random part of its lease token. Each attempt writes
 * a file of its own, so that two attempts (one that lost its lease and has not noticed yet,
 * and the one that took over) never write into one file; the completion names the file.
 */
export const attemptArtifactName = (job: JobRecord, owner: string): string =>
  `${job.id}.${owner.slice(owner.lastIndexOf('.') + 1)}.${EXPORT_FILE_TYPES[exportFormatOf(job)].extension}`;

/** The completed export's file: the one its completion named, or `<job id>.<extension>` for an export completed before attempts had files of their own. */
export const artifactName = (job: JobRecord): string => job.storageId ?? `${job.id}.${EXPORT_FILE_TYPES[exportFormatOf(job)].extension}`;

const ARTIFACT_NAME = /^job_[0-9a-f]+(\.[0-9a-f]+)?\.(json|csv|html)$/;
export const isArtifactName = (name: string): boolean => ARTIFACT_NAME.test(name);

/** Every file of an export job's attempts, among the store's exports. */
export const isArtifactOf = (jobId: string, name: string): boolean => isArtifactName(name) && name.startsWith(`${jobId}.`);

/**
 * Writes the export under its name, visible only once complete, so that a download never sees
 * half a file. Each chunk is written before the next is asked for: no more than a chunk is held
 * whatever the export's size. Stops, leaving nothing, once `signal` is aborted (the lease lost,
 * the server stopping).
 */
export async function writeArtifact(exports: FileBytes, name: string, chunks: AsyncIterable<string>, signal: AbortSignal): Promise<void> {
  const file = await exports.create(name);
  try {
    for await (const chunk of chunks) {
      signal.throwIfAborted();
      await file.write(Buffer.from(chunk, 'utf8'));
    }
    signal.throwIfAborted();
  } catch (err) {
    await file.abort();
    throw err;
  }
  await file.commit();
}
