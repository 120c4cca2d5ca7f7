import type { z } from 'zod';
import type * as api from '../../lib/api/jobs.ts';
import type { BookmarkType } from '../../lib/api/bookmarks.ts';
import type { InterchangeBookmark, InterchangeCollection } from '../interchange/types.ts';

export type JobType = api.Job['type'];
export type JobStatus = api.Job['status'];
export type ImportResult = z.infer<typeof api.ImportResult>;
export type SkippedReason = z.infer<typeof api.SkippedReason>;
export type SkippedCount = z.infer<typeof api.SkippedCount>;

/** What a completed import tells about its skipped entries. */
export interface SkippedSummary {
  /** The first few, in file order. */
  reasons: SkippedReason[];
  /** All of them by kind. */
  counts: SkippedCount[];
  /** Folders not made for the collection cap (see ImportWriter.collectionsCapped); absent in jobs stored before it. */
  collectionsCapped?: number;
}

/** A job as stored, with what the runner needs beyond the API's view of it. */
export interface JobRecord {
  id: string;
  userId: string;
  type: JobType;
  status: JobStatus;
  /** 0 to 100. */
  progress: number;
  format: string | null;
  storageId: string | null;
  /** Import: entries of the parsed file handled by committed batches. */
  position: number;
  counts: ImportResult;
  /** A completed import's; null for other jobs. */
  skipped: SkippedSummary | null;
  errorMessage: string | null;
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
  expiresAt: number | null;
  filesRemoved: boolean;
  /** The instance that holds the job (see JobsStore.claim); its writes are the only ones that take. */
  leaseOwner: string | null;
}

/** One entry of an import file, checked and trimmed to the API's limits. */
export type ImportEntry =
  | {
      ok: true;
      url: string;
      title: string;
      description: string;
      note: string;
      type: BookmarkType;
      isFavorite: boolean;
      tags: string[];
      collectionPath: string[];
      createdAt: number | null;
    }
  /** group: the reason without what is particular to the entry, for the summary's counts (the reason when absent). */
  | { ok: false; reason: string; group?: string };

export interface BatchPosition {
  /** Entries handled once this batch commits. */
  position: number;
  progress: number;
}

/** Writes one run of one import job's collections and bookmarks. */
export interface ImportWriter {
  /**
   * Makes sure each collection exists, in one transaction: an active collection with the
   * same name (case-insensitively) under the same parent is used as it is, the others are
   * created with the attributes given. Paths must come parents first.
   */
  ensureCollections(collections: readonly InterchangeCollection[], now: number): Promise<void>;
  /**
   * Inserts a batch in one transaction that also records the job's position, progress and
   * counts. A URL the user already has (active or trashed, exact match) is a duplicate,
   * left as it is. An entry whose new tags would take the user past MAX_TAGS_PER_USER is
   * skipped (see `rejected`). Answers false, committing nothing, when the job is no longer running
   * or no longer held by the lease owner the job was taken with.
   */
  writeBatch(entries: readonly ImportEntry[], at: BatchPosition, now: number): Promise<boolean>;
  /** Why the committed batches of this run skipped entries that the file alone did not show to be bad. */
  rejected(): readonly SkippedReason[];
  /**
   * How many of the file's folders this run did not make because the account reached
   * MAX_COLLECTIONS_PER_USER collections (their bookmarks went into the nearest folder above
   * them that exists or was made, or Unsorted).
   */
  collectionsCapped(): number;
  /** Ends the run (call it however the run ends): what it held back for speed is done now. */
  close(): Promise<void>;
}

/** An active collection as an export reads it; the export itself walks them into a tree. */
export interface ExportCollectionRow {
  id: string;
  parentId: string | null;
  name: string;
  icon: string;
  color: string;
  notes: string;
}

/** An active bookmark as an export reads it: its tag names sorted case-insensitively, its folder by id. */
export type ExportBookmarkRow = Omit<InterchangeBookmark, 'collectionPath' | 'createdAt'> & { collectionId: string | null; createdAt: number };

export interface ExportPageOptions {
  /** At most this many rows a page (every page but the last has exactly this many). */
  pageSize: number;
  /** Only the bookmarks filed in one of these collections; all of them when absent. */
  collectionIds?: readonly string[];
}

/** Import and export jobs, and the reads and writes of the library that they do. */
export interface JobsStore {
  create(input: { userId: string; type: JobType; format: string | null }, now: number): Promise<JobRecord>;
  /** The user's job, or null (another user's job included). */
  get(userId: string, id: string): Promise<JobRecord | null>;
  find(id: string): Promise<JobRecord | null>;
  /** The user's pending import becomes running on this file; null when it is not (or no longer) a pending import of the user. */
  startImport(userId: string, id: string, storageId: string, now: number): Promise<JobRecord | null>;
  /**
   * `owner` (one attempt of one instance, see holdJob) takes the job to run it for `leaseMs`
   * unless renewed: atomically, so that of several instances one wins. Only a job left to run
   * (running, or an export waiting) that nobody holds, or whose lease lapsed, can be taken (or
   * one the owner holds already). Answers the job as taken, or null. Lease times are the
   * database's clock, never an instance's (see docs/deploying.md, "Jobs"), and real time, not
   * the test clock's: they are about processes being alive.
   */
  claim(id: string, owner: string, leaseMs: number): Promise<JobRecord | null>;
  /** Extends the owner's lease to `leaseMs` from now; false when the owner no longer holds it (it lapsed and was taken). */
  renewLease(id: string, owner: string, leaseMs: number): Promise<boolean>;
  /** The owner lets go (its run ended or stopped), so that another instance may take the job at once. */
  releaseLease(id: string, owner: string): Promise<void>;

  // The writes of a run below take effect only while `owner` holds the job's lease.
  /** An export (re)starts from nothing: running, progress 0. */
  startExport(id: string, owner: string, now: number): Promise<void>;
  setProgress(id: string, progress: number): Promise<void>;
  setFormat(id: string, format: string): Promise<void>;
  /** Completes with the attempt's own artifact (see attemptArtifactName); false when the owner no longer held it. */
  completeExport(id: string, owner: string, artifact: string, now: number, expiresAt: number): Promise<boolean>;
  /** Adds the entries skipped before the batches (unreadable ones) to the counts, and completes; false when the owner no longer held it. */
  completeImport(id: string, owner: string, extra: { skipped: number; summary: SkippedSummary }, now: number): Promise<boolean>;
  /** Fails the job with this message; false when the owner no longer held it (its new holder decides its end). */
  fail(id: string, owner: string, message: string, now: number): Promise<boolean>;

  /** Jobs left to run that no instance holds now (the database's clock): running ones, and exports still waiting to run. */
  interrupted(): Promise<JobRecord[]>;

  /** Finished jobs whose files are still on disk and no longer needed, as of now. */
  filesToRemove(now: number): Promise<JobRecord[]>;
  markFilesRemoved(ids: readonly string[]): Promise<void>;
  /** Imports reserved before the cutoff and never started, and jobs (not running) created before the retention cutoff. */
  expired(cutoffs: { unstartedImport: number; retention: number }): Promise<JobRecord[]>;
  /** Deletes those of the jobs that are not running; answers their ids. */
  delete(ids: readonly string[]): Promise<string[]>;

  /** The user's active collections, siblings in their order (sort order, then creation): few enough to read at once. */
  exportCollections(userId: string): Promise<ExportCollectionRow[]>;
  /**
   * The user's active bookmarks oldest first (creation time, then creation order), page by
   * page: each page is its own short read that starts after the last row of the page before
   * (keyset), and the event loop is free between pages, so that a library of any size is read
   * in bounded memory without holding the database or other requests back. Not a snapshot:
   * a bookmark saved, moved or deleted while the pages are read may be seen or not.
   */
  exportPages(userId: string, options: ExportPageOptions): AsyncIterable<ExportBookmarkRow[]>;
  importWriter(job: JobRecord): Promise<ImportWriter>;
}
