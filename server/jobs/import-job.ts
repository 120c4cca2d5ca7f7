import { buffer } from 'node:stream/consumers';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { importDateRange } from '../interchange/dates.ts';
import { UnsupportedFormatError, parseImport } from '../interchange/parse.ts';
import type { ParsedImport, SkippedEntry } from '../interchange/types.ts';
import type { ImportEntry, ImportWriter, JobRecord, SkippedReason, SkippedSummary } from '../store/jobs.ts';
import type { JobDeps } from './deps.ts';
import { importCollection, importEntry } from './import-entries.ts';

/** The spec's "processes bookmarks in batches of 50". */
export const IMPORT_BATCH = 50;
/** Collections written per transaction (parents always come before their children). */
const COLLECTION_SLICE = 5000;
/** How many skipped entries a completed job lists. */
const MAX_REASONS = 20;

const EXPECTED =
  'expected Netscape HTML (a browser\'s "Export bookmarks" file), a Chromium profile Bookmarks file, a Firefox bookmarks backup (JSON), ' +
  'a Shelf JSON or CSV export, a Pocket HTML or CSV export, or an Instapaper or Raindrop.io CSV export';

export const IMPORT_MESSAGES = {
  interrupted: 'The import was interrupted by a server restart and its file is no longer there; start the import again',
  fileGone: 'The uploaded file is no longer there; reserve a new import and upload the file again',
  unreadable: (detail: string | null) =>
    `The file is not a bookmark export we can read: ${EXPECTED}${detail === null ? '' : ` (${detail})`}`,
};

/** A committed batch shows as progress; 100 waits for the completion. */
const progressAt = (position: number, total: number): number => Math.max(1, Math.min(99, Math.floor((100 * position) / total)));

/**
 * Imports the job's file. Every batch of 50 entries commits together with the job's
 * position, so a run that resumes after a crash starts right after the last committed
 * batch: parsing the same file again gives the same entries in the same order. The
 * collections step matches existing collections by name, so repeating it adds nothing.
 */
export async function runImport(deps: JobDeps, job: JobRecord, signal: AbortSignal, resumed: boolean): Promise<void> {
  const { store } = deps;
  const content = await readImportFile(deps, job);
  if (content === null) return finish(deps, job, resumed ? IMPORT_MESSAGES.interrupted : IMPORT_MESSAGES.fileGone);

  let parsed: ParsedImport;
  try {
    // The range is fixed by the job, not by the run: a run resumed after a crash must read the same entries.
    parsed = parseImport(content, importDateRange(job.startedAt ?? job.createdAt));
  } catch (err) {
    if (!(err instanceof UnsupportedFormatError)) console.error(`import job ${job.id}: the parser failed:`, err);
    return finish(deps, job, IMPORT_MESSAGES.unreadable(unsupportedDetail(err)));
  }
  await store.jobs.setFormat(job.id, parsed.format);

  const entries = parsed.bookmarks.map(importEntry);
  const writer = await store.jobs.importWriter(job);
  try {
    if (!(await writeAll(deps, job, writer, parsed, entries, signal))) return;
  } finally {
    await writer.close();
  }
  await finish(deps, job, null);
}

/** Collections, then the batches from the job's position on; false when the run stopped before the end or lost the job to another instance. */
async function writeAll(
  { store, clock, instanceId }: JobDeps,
  job: JobRecord,
  writer: ImportWriter,
  parsed: ParsedImport,
  entries: readonly ImportEntry[],
  signal: AbortSignal,
): Promise<boolean> {
  // In slices, each its own transaction, so that a file of many folders never holds the event
  // loop for long; a resumed run finds the slices already written (collections match by name).
  const collections = parsed.collections.map(importCollection);
  for (let start = 0; start < collections.length; start += COLLECTION_SLICE) {
    if (signal.aborted) return false;
    await writer.ensureCollections(collections.slice(start, start + COLLECTION_SLICE), clock.now());
    await nextTurn();
  }
  for (let position = job.position; position < entries.length; ) {
    // Left running: the next start (or another instance) resumes from the recorded position.
    if (signal.aborted) return false;
    const end = Math.min(position + IMPORT_BATCH, entries.length);
    const written = await writer.writeBatch(entries.slice(position, end), { position: end, progress: progressAt(end, entries.length) }, clock.now());
    if (!written) return false;
    position = end;
    await nextTurn();
  }
  // The parser's skips in file order, the entries the importer refused, then those refused while writing (a cap reached).
  const summary = skippedSummary([...parsed.skipped, ...entries.filter((entry) => !entry.ok), ...writer.rejected()]);
  return store.jobs.completeImport(job.id, instanceId, { skipped: parsed.skipped.length, summary }, clock.now());
}

async function readImportFile({ storage }: JobDeps, job: JobRecord): Promise<Buffer | null> {
  const file = job.storageId === null ? null : await storage.openImportFile(job.userId, job.id, job.storageId);
  const bytes = file && (await file.read());
  return bytes && buffer(bytes).catch(() => null);
}

/** The job ends: failed with this message (null: it completed), and its file goes either way. */
async function finish({ store, storage, clock, instanceId }: JobDeps, job: JobRecord, failure: string | null): Promise<void> {
  if (failure !== null) await store.jobs.fail(job.id, instanceId, failure, clock.now());
  await storage.deleteImportFilesOfJob(job.id);
}

/** What the parser said beyond "unrecognised" (say, an unsupported version of our own export). */
function unsupportedDetail(err: unknown): string | null {
  if (!(err instanceof UnsupportedFormatError)) return 'the file could not be parsed';
  return err.message.startsWith('Unrecognised') ? null : err.message;
}

/** The first skipped entries, in the order given, and all of them counted by kind. */
function skippedSummary(skipped: readonly SkippedEntry[]): SkippedSummary {
  const reasons = skipped.slice(0, MAX_REASONS).map(({ line, reason }): SkippedReason => (line === undefined ? { reason } : { line, reason }));
  const counts = new Map<string, number>();
  for (const { reason, group } of skipped) counts.set(group ?? reason, (counts.get(group ?? reason) ?? 0) + 1);
  return { reasons, counts: [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count) };
}
