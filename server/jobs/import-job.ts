import { importDateRange } from '../interchange/dates.ts';
import { UnsupportedFormatError } from '../interchange/parse.ts';
import type { JobDeps } from './deps.ts';
import { ImportRun, RunStopped } from './import-run.ts';
import type { HeldJob } from './lease.ts';
import { type ImportFile, type ImportSource, openImport } from './import-source.ts';

const EXPECTED =
  'expected Netscape HTML (a browser\'s "Export bookmarks" file), a Chromium profile Bookmarks file, a Firefox bookmarks backup (JSON), ' +
  'a Shelf JSON or CSV export, a Pocket HTML or CSV export, or an Instapaper or Raindrop.io CSV export';

export const IMPORT_MESSAGES = {
  interrupted: 'The import was interrupted by a server restart and its file is no longer there; start the import again',
  fileGone: 'The uploaded file is no longer there; reserve a new import and upload the file again',
  unreadable: (detail: string | null) =>
    `The file is not a bookmark export we can read: ${EXPECTED}${detail === null ? '' : ` (${detail})`}`,
};

/**
 * Imports the job's file, reading it a chunk at a time and writing as it reads (see
 * ImportRun): every batch of 50 entries commits together with the job's position, so that a
 * run that resumes after a crash starts right after the last committed batch: reading the
 * same file again gives the same entries in the same order. Writing the folders matches
 * existing collections by name, so repeating it adds nothing.
 */
export async function runImport(deps: JobDeps, held: HeldJob, resumed: boolean): Promise<void> {
  const { store } = deps;
  const { job, owner, signal } = held;
  const file = await importFileOf(deps, job);
  if (file === null) return finish(deps, held, resumed ? IMPORT_MESSAGES.interrupted : IMPORT_MESSAGES.fileGone);

  let source: ImportSource;
  try {
    // The range is fixed by the job, not by the run: a run resumed after a crash must read the same entries.
    source = await openImport(file, importDateRange(job.startedAt ?? job.createdAt));
  } catch (err) {
    if (!(err instanceof UnsupportedFormatError)) console.error(`import job ${job.id}: the parser failed:`, err);
    return finish(deps, held, IMPORT_MESSAGES.unreadable(unsupportedDetail(err)));
  }
  await store.jobs.setFormat(job.id, source.format);

  const writer = await store.jobs.importWriter(job);
  try {
    const run = new ImportRun(deps, job, owner, writer, signal);
    await source.readInto(run);
    // False: another instance holds the job now, and finishes it.
    if (!(await run.finish())) return;
  } catch (err) {
    if (err instanceof RunStopped) return;
    throw err;
  } finally {
    await writer.close();
  }
  await finish(deps, held, null);
}

async function importFileOf({ storage }: JobDeps, job: HeldJob['job']): Promise<ImportFile | null> {
  const file = job.storageId === null ? null : await storage.openImportFile(job.userId, job.id, job.storageId);
  // Its record without its bytes (a crash between the two, a sweep): as gone as no record.
  const probe = file && (await file.read());
  if (probe === null) return null;
  probe.destroy();
  return file;
}

/**
 * The job ends: failed with this message (null: it completed), and its file goes either way, unless this attempt
 * had lost the job: its new holder may be reading the file.
 */
async function finish({ store, storage, clock }: JobDeps, { job, owner }: HeldJob, failure: string | null): Promise<void> {
  if (failure !== null && !(await store.jobs.fail(job.id, owner, failure, clock.now()))) return;
  await storage.deleteImportFilesOfJob(job.id);
}

/** What the parser said beyond "unrecognised" (say, an unsupported version of our own export). */
function unsupportedDetail(err: unknown): string | null {
  if (!(err instanceof UnsupportedFormatError)) return 'the file could not be parsed';
  return err.message.startsWith('Unrecognised') ? null : err.message;
}
