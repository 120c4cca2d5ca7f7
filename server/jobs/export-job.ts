import { writeExportChunks } from '../interchange/write.ts';
import type { JobRecord } from '../store/jobs.ts';
import { EXPORT_TTL_MS, artifactPath, exportFormatOf, writeArtifact } from './artifacts.ts';
import type { JobDeps } from './deps.ts';

/** Progress once the library is read; writing the file is the rest. */
const READ_PROGRESS = 50;

/** Writes the user's library to the job's artifact. Always from the start: a rerun after a crash overwrites what was left. */
export async function runExport({ store, clock, config, instanceId }: JobDeps, job: JobRecord): Promise<void> {
  const format = exportFormatOf(job);
  await store.jobs.startExport(job.id, instanceId, clock.now());
  const library = await store.jobs.readLibrary(job.userId);
  await store.jobs.setProgress(job.id, READ_PROGRESS);
  await writeArtifact(artifactPath(config.dataDir, job), writeExportChunks(format, { ...library, exportedAt: clock.now() }));
  const now = clock.now();
  await store.jobs.completeExport(job.id, instanceId, now, now + EXPORT_TTL_MS);
}
