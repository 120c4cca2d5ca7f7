import { writeExportChunks } from '../interchange/write.ts';
import type { JobRecord } from '../store/jobs.ts';
import { EXPORT_TTL_MS, artifactName, exportFormatOf, writeArtifact } from './artifacts.ts';
import type { JobDeps } from './deps.ts';
import { storeSource } from './export-source.ts';

/**
 * Writes the user's library to the job's artifact, a page of bookmarks at a time, so that the
 * server's memory does not grow with the library. Always from the start: a rerun after a crash
 * overwrites what was left.
 */
export async function runExport({ store, clock, instanceId }: JobDeps, job: JobRecord): Promise<void> {
  const format = exportFormatOf(job);
  await store.jobs.startExport(job.id, instanceId, clock.now());
  const { total } = await store.bookmarks.stats(job.userId);
  let written = 0;
  let progress = 0;
  const onPage = async (bookmarks: number): Promise<void> => {
    written += bookmarks;
    // 100 waits for the completion.
    const now = Math.min(99, Math.floor((100 * written) / Math.max(1, total)));
    if (now === progress) return;
    progress = now;
    await store.jobs.setProgress(job.id, progress);
  };
  const source = await storeSource(store.jobs, job.userId, clock.now(), onPage);
  await writeArtifact(store.exports, artifactName(job), writeExportChunks(format, source));
  const now = clock.now();
  await store.jobs.completeExport(job.id, instanceId, now, now + EXPORT_TTL_MS);
}
