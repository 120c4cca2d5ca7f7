import { importDateRange } from '../../server/interchange/dates.ts';
import { parseImport } from '../../server/interchange/parse.ts';
import type { ParsedImport } from '../../server/interchange/types.ts';

/** The dates an import started now accepts. */
export const importRangeNow = () => importDateRange(Date.now());

/** parseImport as an import started now reads the file. */
export const readImport = (input: Buffer | string): ParsedImport => parseImport(input, importRangeNow());
