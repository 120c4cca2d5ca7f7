import * as z from 'zod/mini';
import { readItem } from '../../lib/storage/typed-item.ts';
import { savedIndexItem } from '../../lib/storage/items.ts';

/** What the memory needs of `browser.storage.local`. */
export interface IndexStorage {
  get(key: string): Promise<Record<string, unknown>>;
  onChanged: { addListener(listener: (changes: Record<string, { newValue?: unknown }>) => void): void };
}
/** The stored index's key in its storage area. */
const KEY = savedIndexItem.key.slice('local:'.length);

type Entries = Record<string, string>;
const isEntries = (value: unknown): value is Entries =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((id) => typeof id === 'string');

/**
 * The index's entries alone, checked in one pass over their values: the index's own record schema copies every
 * entry (10,000 of them: 16 ms, 70 ms in a worker just started, in which zod's code is not yet compiled).
 */
const searchedIndex = readItem(savedIndexItem.key, z.object({ entries: z.custom<Entries>(isEntries) }), { fallback: { entries: {} }, onInvalid: 'fallback' });

/**
 * What a keystroke searches: the entries' keys, each lower-cased the first time a search reaches it (a word is
 * usually found long before the 10,000th key, and building every lower-case key first took 14-50 ms).
 */
interface Searched {
  raw: unknown;
  entries: Entries;
  keys: string[];
  lower: (string | undefined)[];
}

/**
 * The saved-page index as the address bar searches it, in the background's memory: read from storage when the
 * background starts (the event page or worker loses its memory when it stops), then followed through storage's
 * own change events whoever wrote the index, so that a keystroke never reads storage. Read at the keyword instead,
 * the first word's keystrokes waited for it: in Chromium's worker a 10,000-entry index takes 120-250 ms to read.
 */
export class IndexMemory {
  /** The stored value as last read or changed; checked and turned into `searched` at the next search only. */
  private raw: Promise<unknown> | null = null;
  private searched: Searched | null = null;

  constructor(private storage: IndexStorage) {
    storage.onChanged.addListener((changes) => {
      const change = changes[KEY];
      // A write before the first read is read with the rest then.
      if (change && this.raw) this.raw = Promise.resolve(change.newValue);
    });
  }

  /**
   * Saved pages whose URL key holds every one of the words (lower case), at most `max`: the index knows keys
   * (normalised URLs, a comparison key and no address to open) and ids, nothing more, and answers without a request.
   */
  async matching(words: readonly string[], max: number): Promise<{ key: string; id: string }[]> {
    if (words.length === 0) return [];
    const { entries, keys, lower } = this.current(await this.load());
    const found: { key: string; id: string }[] = [];
    for (let i = 0; i < keys.length && found.length < max; i++) {
      const key = keys[i]!;
      const text = (lower[i] ??= key.toLowerCase());
      if (words.every((w) => text.includes(w))) found.push({ key, id: entries[key]! });
    }
    return found;
  }

  /** Reads the index unless it is in memory already: called when the background starts. */
  load(): Promise<unknown> {
    return (this.raw ??= this.storage.get(KEY).then((stored) => stored[KEY]));
  }

  private current(raw: unknown): Searched {
    if (this.searched === null || this.searched.raw !== raw) {
      const { entries } = searchedIndex.from(raw);
      this.searched = { raw, entries, keys: Object.keys(entries), lower: [] };
    }
    return this.searched;
  }
}
