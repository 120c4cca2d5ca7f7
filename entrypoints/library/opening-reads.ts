import { readEarlyTogether } from '../../lib/storage/early-reads.ts';
import { LIBRARY_SORTS_KEY, LIBRARY_VIEWS_KEY, firstPageKey } from '../../lib/storage/opening-keys.ts';

/** The list the library page opens on. */
export const OPENING_SOURCE = { kind: 'all' } as const;

/**
 * Run by library-early.js: the lists' views and orders and the opening list's kept first page, in one
 * storage request while the page's modules load (opening.ts takes them). One after the other, as the
 * page would ask for them itself, they held its first cards back by three storage round trips.
 */
export function startOpeningReads(win: Window): void {
  for (const read of readEarlyTogether(win, [LIBRARY_VIEWS_KEY, LIBRARY_SORTS_KEY, firstPageKey(JSON.stringify(OPENING_SOURCE))])) {
    read.catch(() => undefined); // heard where the page takes it, or read again there
  }
}
