import { sendEarly } from '../../lib/messaging/early-messages.ts';
import { DUPLICATES_SECTION } from '../../lib/options-sections.ts';
import { readEarly } from '../../lib/storage/early-reads.ts';
import { COLLECTIONS_CACHE_KEY, SMART_FOLDERS_CACHE_KEY, TAGS_CACHE_KEY } from '../../lib/storage/opening-keys.ts';

/** The kept list a section opens with (components/library/queries.ts takes it), by the page's address. */
export const SECTION_READS: Record<string, `local:${string}`> = {
  '#collections': COLLECTIONS_CACHE_KEY,
  '#tags': TAGS_CACHE_KEY,
  '#smart-folders': SMART_FOLDERS_CACHE_KEY,
};

/** Run by options-early.js. */
export function startOpeningReads(win: Window): void {
  const key = SECTION_READS[win.location.hash];
  if (key) void readEarly(win, key);
  // The duplicate groups are a heavy request: under way while the page loads rather than after its first render.
  if (win.location.hash === `#${DUPLICATES_SECTION}`) sendEarly(win, 'findDuplicates', {});
}
