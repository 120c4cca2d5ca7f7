import * as z from 'zod/mini';
import { lazySchema } from '../api/lazy-schema.ts';

/**
 * The saved-page index as the address bar searches it, in two texts of one line a page in the same order: the keys
 * (`lowerKey`, or `lowerKey\tkey` where the URL key has capitals) and the ids. Lower-cased once when the index is
 * written, and searched as one string with indexOf, so that neither a keystroke nor the read at the keyword's entry
 * walks 10,000 records (reading the index's object from storage.local took 120-250 ms in Chromium's worker; one text
 * from IndexedDB, about 20 ms). The ids are apart because only Enter needs one: a stopped worker's first keystroke
 * waits for the keys' read alone, some three quarters of the bytes. URL keys and ids hold no tab and no line break
 * (the URL parser strips both), and typed words hold no whitespace.
 */
export const StoredSearchKeys = lazySchema(() => z.object({ version: z.literal(2), keys: z.string() }));
export const StoredSearchIds = lazySchema(() => z.object({ version: z.literal(2), ids: z.string() }));

export interface SearchText {
  keys: string;
  ids: string;
}

/** A page found in the keys: its URL key, and where its line starts in the keys (its line's number is its id's in the ids). */
export interface KeyMatch {
  key: string;
  start: number;
}

export function searchTextOf(entries: Record<string, string>): SearchText {
  const pages = Object.entries(entries);
  return {
    keys: pages
      .map(([key]) => {
        const lower = key.toLowerCase();
        return lower === key ? lower : `${lower}\t${key}`;
      })
      .join('\n'),
    ids: pages.map(([, id]) => id).join('\n'),
  };
}

/**
 * The pages whose URL key holds every word (lower case), at most `max`, in the index's order. Only the lines that
 * hold the first word are split, each checked as it is used: null when one is not a line of this form (the stored
 * keys are corrupt and are to be built again).
 */
export function matchingLines(keys: string, words: readonly string[], max: number): KeyMatch[] | null {
  const [first, ...rest] = words;
  const found: KeyMatch[] = [];
  if (first === undefined) return found;
  for (let from = 0; found.length < max; ) {
    const at = keys.indexOf(first, from);
    if (at === -1) break;
    const start = keys.lastIndexOf('\n', at) + 1;
    const lineEnd = keys.indexOf('\n', at);
    const end = lineEnd === -1 ? keys.length : lineEnd;
    from = end + 1;
    const fields = keys.slice(start, end).split('\t');
    const [lower, key = lower] = fields;
    if (fields.length > 2 || !lower || !key || lower !== key.toLowerCase()) return null;
    // The first word may have been found in the key's own spelling rather than its lower case.
    if (lower.includes(first) && rest.every((w) => lower.includes(w))) found.push({ key, start });
  }
  return found;
}

/** The number (from 0) of the line that starts at `start`: counted on Enter, never at a keystroke. */
export function lineNumberAt(text: string, start: number): number {
  let line = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < start; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

export const lineCount = (text: string): number => lineNumberAt(text, text.length) + 1;

/** The text's line numbered `line` (from 0); null past its end. */
export function lineAt(text: string, line: number): string | null {
  let start = 0;
  for (let n = 0; n < line; n++) {
    const end = text.indexOf('\n', start);
    if (end === -1) return null;
    start = end + 1;
  }
  const end = text.indexOf('\n', start);
  return text.slice(start, end === -1 ? text.length : end);
}
