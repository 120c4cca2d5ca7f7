import { savedIndexItem } from '../../lib/storage/items.ts';

/** What the memory needs of `browser.storage.local`. */
export interface IndexStorage {
  get(key: string): Promise<Record<string, unknown>>;
  onChanged: { addListener(listener: (changes: Record<string, { newValue?: unknown }>) => void): void };
}
/** The stored index's key in its storage area. */
const KEY = savedIndexItem.key.slice('local:'.length);

/** URL keys in lower case, each with its bookmark's id. */
type Keys = readonly (readonly [lower: string, key: string, id: string])[];

const keysOf = (entries: Record<string, string>): Keys => Object.entries(entries).map(([key, id]) => [key.toLowerCase(), key, id] as const);

/**
 * The saved-page index as the address bar searches it, in the background's memory: read from storage once (at the
 * first keystroke after the background starts, the event page or worker having lost its memory when it stopped),
 * then replaced from storage's own change events whoever wrote the index, so that a keystroke never reads storage
 * (10,000 entries are a few milliseconds to read and parse each time).
 */
export class IndexMemory {
  private keys: Promise<Keys> | null = null;

  constructor(private storage: IndexStorage) {
    storage.onChanged.addListener((changes) => {
      const change = changes[KEY];
      // A write before the first keystroke is read with the rest then.
      if (change && this.keys) this.keys = Promise.resolve(keysOf(savedIndexItem.from(change.newValue).entries));
    });
  }

  /**
   * Saved pages whose URL key holds every one of the words (lower case), at most `max`: the index knows keys
   * (normalised URLs, a comparison key and no address to open) and ids, nothing more, and answers without a request.
   */
  async matching(words: readonly string[], max: number): Promise<{ key: string; id: string }[]> {
    if (words.length === 0) return [];
    const found: { key: string; id: string }[] = [];
    for (const [lower, key, id] of await this.load()) {
      if (words.every((w) => lower.includes(w))) found.push({ key, id });
      if (found.length === max) break;
    }
    return found;
  }

  /**
   * Reads the index now if it is not in memory yet: called when the user enters the keyword (`sh` and a space),
   * so that the read is over before the first word's keystrokes rather than behind them.
   */
  load(): Promise<Keys> {
    return (this.keys ??= this.storage.get(KEY).then((stored) => keysOf(savedIndexItem.from(stored[KEY]).entries)));
  }
}
