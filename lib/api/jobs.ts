import { z } from 'zod';
import { Id, IsoDate } from './common.ts';

export const ExportFormat = z.enum(['json', 'csv', 'html']);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const JobStatus = z.enum(['pending', 'running', 'completed', 'failed']);

export const ImportResult = z.object({
  imported: z.number(),
  skipped: z.number(),
  duplicates: z.number(),
});

/** An entry of an import file that was not imported, and why; line when the format has lines. */
export const SkippedReason = z.object({ line: z.number().optional(), reason: z.string() });

export const Job = z.object({
  id: Id,
  type: z.enum(['import', 'export']),
  status: JobStatus,
  progress: z.number(),
  createdAt: IsoDate,
  errorMessage: z.string().optional(),
  format: z.string().optional(),
  completedAt: IsoDate.nullable().optional(),
  expiresAt: IsoDate.nullable().optional(),
  result: ImportResult.optional(),
  /** A completed import: the first few skipped entries. */
  skippedReasons: z.array(SkippedReason).optional(),
});
export type Job = z.infer<typeof Job>;

export const JobCreated = z.object({ jobId: Id });
export const ImportReserved = z.object({ jobId: Id, uploadUrl: z.string() });
export const StartImportBody = z.object({ jobId: Id, storageId: Id });
export const ExportParams = z.object({ format: ExportFormat });
