import * as z from 'zod/mini';
import { lazySchema } from '../api/lazy-schema.ts';

/**
 * The saved-page index as the address bar searches it: one line a page, `lowerKey\tid`, or `lowerKey\tid\tkey`
 * where the URL key has capitals. Lower-cased once when the index is written, and searched as one string with
 * indexOf, so that neither a keystroke nor the read at the keyword's entry walks 10,000 records (reading the
 * index's object from storage.local took 120-250 ms in Chromium's worker; this text from IndexedDB, about 20 ms).
 * URL keys and ids hold no tab and no line break (the URL parser strips both), and typed words hold no whitespace.
 */
export const StoredSearchText = lazySchema(() => z.object({ version: z.literal(1), text: z.string() }));

export interface IndexMatch {
  key: string;
  id: string;
}

export function searchTextOf(entries: Record<string, string>): string {
  return Object.entries(entries)
    .map(([key, id]) => {
      const lower = key.toLowerCase();
      return lower === key ? `${lower}\t${id}` : `${lower}\t${id}\t${key}`;
    })
    .join('\n');
}

/**
 * The pages whose URL key holds every word (lower case), at most `max`, in the index's order. Only the lines that
 * hold the first word are split, each checked as it is used: null when one is not a line of this form (the stored
 * text is corrupt and is to be built again).
 */
export function matchingLines(text: string, words: readonly string[], max: number): IndexMatch[] | null {
  const [first, ...rest] = words;
  const found: IndexMatch[] = [];
  if (first === undefined) return found;
  for (let from = 0; found.length < max; ) {
    const at = text.indexOf(first, from);
    if (at === -1) break;
    const start = text.lastIndexOf('\n', at) + 1;
    const lineEnd = text.indexOf('\n', at);
    const end = lineEnd === -1 ? text.length : lineEnd;
    from = end + 1;
    const fields = text.slice(start, end).split('\t');
    const [lower, id, key = lower] = fields;
    if (fields.length > 3 || !lower || !id || !key || lower !== key.toLowerCase()) return null;
    // The first word may have been found in the id rather than the key.
    if (lower.includes(first) && rest.every((w) => lower.includes(w))) found.push({ key, id });
  }
  return found;
}
