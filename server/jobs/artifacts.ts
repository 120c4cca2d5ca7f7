import { type ExportFormat, ExportFormat as ExportFormatSchema } from '../../lib/api/jobs.ts';
import { HOUR } from '../clock.ts';
import { EXPORT_FILE_TYPES } from '../interchange/write.ts';
import type { FileBytes } from '../store/files.ts';
import type { JobRecord } from '../store/jobs.ts';

/** The spec's "an export artifact expires 2 hours after the job completes". */
export const EXPORT_TTL_MS = 2 * HOUR;

export const exportFormatOf = (job: JobRecord): ExportFormat => ExportFormatSchema.parse(job.format);

/** An export job's file, among the store's exports: `<job id>.<extension>` (on disk, <dataDir>/exports/). */
export const artifactName = (job: JobRecord): string => `${job.id}.${EXPORT_FILE_TYPES[exportFormatOf(job)].extension}`;

const ARTIFACT_NAME = /^job_[0-9a-f]+\.(json|csv|html)$/;
export const isArtifactName = (name: string): boolean => ARTIFACT_NAME.test(name);

/**
 * Writes the export under its name, visible only once complete, so that a download never sees
 * half a file and a rerun after a crash simply starts over. Each chunk is written before the
 * next is asked for: no more than a chunk is held whatever the export's size.
 */
export async function writeArtifact(exports: FileBytes, name: string, chunks: AsyncIterable<string>): Promise<void> {
  await exports.remove([name]);
  const file = await exports.create(name);
  try {
    for await (const chunk of chunks) await file.write(Buffer.from(chunk, 'utf8'));
  } catch (err) {
    await file.abort();
    throw err;
  }
  await file.commit();
}
