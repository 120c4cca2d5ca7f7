import { setImmediate as nextTurn } from 'node:timers/promises';
import { type CollectionAttributes, CollectionSet, pathKey } from '../interchange/collections.ts';
import type { ImportSink } from '../interchange/events.ts';
import type { InterchangeBookmark, SkippedEntry } from '../interchange/types.ts';
import type { ImportEntry, ImportWriter, JobRecord, SkippedReason, SkippedSummary } from '../store/jobs.ts';
import type { JobDeps } from './deps.ts';
import { importCollection, importEntry } from './import-entries.ts';

/** The spec's "processes bookmarks in batches of 50". */
export const IMPORT_BATCH = 50;
/** Collections written per transaction (parents always come before their children). */
const COLLECTION_SLICE = 5000;
/** How many skipped entries a completed job lists. */
const MAX_REASONS = 20;

/** The run ends before the end of the file: it was stopped, or another instance holds the job now. */
export class RunStopped extends Error {}

/**
 * One run of an import, told the file's content as it is read: every 50 entries from the
 * job's position on commit together with the position, so that a run resumed after a crash
 * reads the file again from the start and writes from right after the last committed batch.
 * It holds a batch, the folders not yet written and the first few skipped entries, never
 * the file's bookmarks. Folders are written before the batch that follows them; a folder
 * told again with more attributes after it was written keeps those it was written with.
 */
export class ImportRun implements ImportSink {
  /** Bookmarks told so far: the next one's index among the file's entries. */
  private told = 0;
  private position: number;
  private batch: ImportEntry[] = [];
  private folders = new CollectionSet();
  private readonly written = new Set<string>();
  private readonly skips = new SkipTally();
  private unreadable = 0;

  constructor(
    private readonly deps: JobDeps,
    private readonly job: JobRecord,
    /** The attempt's lease token (see HeldJob): the completion is fenced on it. */
    private readonly owner: string,
    private readonly writer: ImportWriter,
    private readonly signal: AbortSignal,
  ) {
    this.position = job.position;
  }

  collection(path: readonly string[], attributes?: CollectionAttributes): void {
    this.folders.add(path, attributes);
  }

  bookmark(bookmark: InterchangeBookmark): void {
    const entry = importEntry(bookmark);
    if (!entry.ok) this.skips.refused(entry);
    // Entries before the position were written by an earlier run; they still count in the summary.
    if (this.told++ >= this.job.position) this.batch.push(entry);
  }

  skipped(entry: SkippedEntry): void {
    this.unreadable += 1;
    this.skips.unreadable(entry);
  }

  /** Writes the full batches told so far, recording `progress` (1 to 99) with each. */
  async drain(progress: number): Promise<void> {
    while (this.batch.length >= IMPORT_BATCH) await this.write(this.batch.splice(0, IMPORT_BATCH), progress);
  }

  /** The file is read: the last batch and folders, then the job completes; false when another instance holds it now. */
  async finish(): Promise<boolean> {
    if (this.batch.length > 0) await this.write(this.batch.splice(0), 99);
    await this.writeFolders();
    const summary = { ...this.skips.summary(this.writer.rejected()), collectionsCapped: this.writer.collectionsCapped() };
    const { store, clock } = this.deps;
    return store.jobs.completeImport(this.job.id, this.owner, { skipped: this.unreadable, summary }, clock.now());
  }

  private async write(entries: readonly ImportEntry[], progress: number): Promise<void> {
    await this.writeFolders();
    // Left running when stopped: the next start (or another instance) resumes from the recorded position.
    if (this.signal.aborted) throw new RunStopped();
    const position = this.position + entries.length;
    if (!(await this.writer.writeBatch(entries, { position, progress }, this.deps.clock.now()))) throw new RunStopped();
    this.position = position;
    await nextTurn();
  }

  /**
   * The folders told since the last write that are not written yet, in slices, each its own
   * transaction, so that a file of many folders never holds the event loop for long; a
   * resumed run finds them written already (collections match by name).
   */
  private async writeFolders(): Promise<void> {
    const folders = this.folders.list().filter((c) => !this.written.has(pathKey(c.path)));
    this.folders = new CollectionSet();
    for (let start = 0; start < folders.length; start += COLLECTION_SLICE) {
      if (this.signal.aborted) throw new RunStopped();
      const slice = folders.slice(start, start + COLLECTION_SLICE);
      await this.writer.ensureCollections(slice.map(importCollection), this.deps.clock.now());
      for (const c of slice) this.written.add(pathKey(c.path));
      await nextTurn();
    }
  }
}

/** Where an entry's kind first appears in the list the summary is read from: see SkipTally.summary. */
type Rank = [phase: number, line: number, order: number];

const before = (a: Rank, b: Rank): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * The summary of the skipped entries, kept as they come: the list it is made from is the
 * file's unreadable entries in line order, then the entries refused, then those the writer
 * refused; it keeps the first few of each and a count per kind, not the entries.
 */
class SkipTally {
  private order = 0;
  private firstUnreadable: { entry: SkippedEntry; rank: Rank }[] = [];
  private readonly firstRefused: SkippedReason[] = [];
  private readonly counts = new Map<string, { count: number; rank: Rank }>();

  unreadable(entry: SkippedEntry): void {
    const rank: Rank = [0, entry.line ?? 0, this.order++];
    this.firstUnreadable.push({ entry, rank });
    if (this.firstUnreadable.length > MAX_REASONS) this.firstUnreadable = this.firstUnreadable.sort((a, b) => before(a.rank, b.rank)).slice(0, MAX_REASONS);
    this.count(entry.group ?? entry.reason, rank);
  }

  refused(entry: { reason: string; group?: string }): void {
    if (this.firstRefused.length < MAX_REASONS) this.firstRefused.push({ reason: entry.reason });
    this.count(entry.group ?? entry.reason, [1, 0, this.order++]);
  }

  summary(rejected: readonly SkippedReason[]): SkippedSummary {
    rejected.forEach(({ reason }, i) => this.count(reason, [2, 0, i]));
    const unreadable = this.firstUnreadable
      .sort((a, b) => before(a.rank, b.rank))
      .map(({ entry: { line, reason } }): SkippedReason => (line === undefined ? { reason } : { line, reason }));
    const reasons = [...unreadable, ...this.firstRefused, ...rejected].slice(0, MAX_REASONS);
    const counts = [...this.counts]
      .sort(([, a], [, b]) => b.count - a.count || before(a.rank, b.rank))
      .map(([reason, { count }]) => ({ reason, count }));
    return { reasons, counts };
  }

  private count(kind: string, rank: Rank): void {
    const known = this.counts.get(kind);
    if (known === undefined) this.counts.set(kind, { count: 1, rank });
    else {
      known.count += 1;
      if (before(rank, known.rank) < 0) known.rank = rank;
    }
  }
}
