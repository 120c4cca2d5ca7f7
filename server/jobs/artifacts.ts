import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { dirname, join } from 'node:path';
import { type ExportFormat, ExportFormat as ExportFormatSchema } from '../../lib/api/jobs.ts';
import { HOUR } from '../clock.ts';
import { EXPORT_FILE_TYPES } from '../interchange/write.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-modes.ts';
import type { JobRecord } from '../store/jobs.ts';

/** The spec's "an export artifact expires 2 hours after the job completes". */
export const EXPORT_TTL_MS = 2 * HOUR;

export const exportFormatOf = (job: JobRecord): ExportFormat => ExportFormatSchema.parse(job.format);

/** Where an export job's file lives: <dataDir>/exports/<job id>.<extension>. */
export function artifactPath(dataDir: string, job: JobRecord): string {
  return join(dataDir, 'exports', `${job.id}.${EXPORT_FILE_TYPES[exportFormatOf(job)].extension}`);
}

const partialPath = (path: string): string => `${path}.partial`;

/**
 * Writes the export beside its final name and renames it into place once complete, so
 * that a download never sees half a file and a rerun after a crash simply starts over.
 * The file stream's backpressure paces the chunks: the next is asked for only when the disk
 * has taken the last, so no more than a chunk or two is held whatever the export's size.
 */
export async function writeArtifact(path: string, chunks: AsyncIterable<string>): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const partial = partialPath(path);
  try {
    await pipeline(chunks, createWriteStream(partial, { mode: PRIVATE_FILE_MODE }));
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  await rename(partial, path);
}

export async function removeArtifact(path: string): Promise<void> {
  await rm(path, { force: true });
  await rm(partialPath(path), { force: true });
}
