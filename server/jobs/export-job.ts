import { writeExportChunks } from '../interchange/write.ts';
import { EXPORT_TTL_MS, attemptArtifactName, exportFormatOf, writeArtifact } from './artifacts.ts';
import type { JobDeps } from './deps.ts';
import { storeSource } from './export-source.ts';
import type { HeldJob } from './lease.ts';

/**
 * Writes the user's library to this attempt's artifact, a page of bookmarks at a time, so that
 * the server's memory does not grow with the library. Always from the start. Stops when the
 * lease is lost; completes only while it holds the lease, else forgets its file.
 */
export async function runExport({ store, clock }: JobDeps, { job, owner, signal }: HeldJob): Promise<void> {
  const format = exportFormatOf(job);
  await store.jobs.startExport(job.id, owner, clock.now());
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
  const artifact = attemptArtifactName(job, owner);
  await writeArtifact(store.exports, artifact, writeExportChunks(format, source), signal);
  const now = clock.now();
  if (!(await store.jobs.completeExport(job.id, owner, artifact, now, now + EXPORT_TTL_MS))) await store.exports.remove([artifact]);
}
