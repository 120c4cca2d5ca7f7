import * as z from 'zod/mini';
import { Id, IsoDate } from './common.ts';
import { lazySchema } from './lazy-schema.ts';

/** The spec's payload limit for import endpoints: the most an import file may be. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export const ExportFormat = lazySchema(() => z.enum(['json', 'csv', 'html']));
export type ExportFormat = z.infer<typeof ExportFormat>;

export const JobStatus = lazySchema(() => z.enum(['pending', 'running', 'completed', 'failed']));

export const ImportResult = lazySchema(() => z.object({
  imported: z.number(),
  skipped: z.number(),
  duplicates: z.number(),
}));

/** An entry of an import file that was not imported, and why; line when the format has lines. */
export const SkippedReason = lazySchema(() => z.object({ line: z.optional(z.number()), reason: z.string() }));
/** Skipped entries of one kind (the reason without what is particular to an entry) and how many. */
export const SkippedCount = lazySchema(() => z.object({ reason: z.string(), count: z.number() }));

export const Job = lazySchema(() => z.object({
  id: Id,
  type: z.enum(['import', 'export']),
  status: JobStatus,
  progress: z.number(),
  createdAt: IsoDate,
  errorMessage: z.optional(z.string()),
  format: z.optional(z.string()),
  completedAt: z.optional(z.nullable(IsoDate)),
  expiresAt: z.optional(z.nullable(IsoDate)),
  result: z.optional(ImportResult),
  /** A completed import: the first few skipped entries. */
  skippedReasons: z.optional(z.array(SkippedReason)),
  /** A completed import: every skipped entry counted by kind, most first; the counts add up to result.skipped. */
  skippedCounts: z.optional(z.array(SkippedCount)),
  /**
   * A completed import: the file's folders not made because the account reached its collection
   * cap; their bookmarks were filed in the nearest folder above them (or Unsorted).
   */
  collectionsCapped: z.optional(z.number()),
}));
export type Job = z.infer<typeof Job>;

export const JobCreated = lazySchema(() => z.object({ jobId: Id }));
export const ImportReserved = lazySchema(() => z.object({ jobId: Id, uploadUrl: z.string() }));
export const StartImportBody = lazySchema(() => z.strictObject({ jobId: Id, storageId: Id }));
export const ExportParams = lazySchema(() => z.object({ format: ExportFormat }));
