import { type IndexMatch, matchingLines, searchTextOf } from '../../lib/storage/index-search-text.ts';
import { savedIndexItem } from '../../lib/storage/items.ts';
import { type SearchTextStore, nothingKept } from '../../lib/storage/search-text-store.ts';

/** What the memory needs of `browser.storage.local`. */
export interface IndexStorage {
  get(key: string): Promise<Record<string, unknown>>;
  onChanged: { addListener(listener: (changes: Record<string, { newValue?: unknown }>) => void): void };
}
/** The stored index's key in its storage area. */
const KEY = savedIndexItem.key.slice('local:'.length);
/**
 * How long the index stays unchanged before its text is built and kept: a sync or the library's pages change it
 * many times in a row, and each text is some 40 ms of work and 0.8 MB written for 10,000 pages.
 */
export const SETTLE_MS = 2_000;

/**
 * The saved-page index as the address bar searches it (its search text, lib/storage/index-search-text.ts), in the
 * background's memory, so that a keystroke never reads storage. An index change (seen in storage's own change
 * events) makes the text in memory stale; it is built from the change when a keystroke needs it or once the changes
 * settle, and then kept (its store's read is a few times quicker than the index's own) for the next background. A
 * background with nothing in memory reads the kept text when the keyword is entered (the event page or worker
 * having lost its memory when it stopped); one without a kept text (an earlier version's, a text lost or corrupt,
 * or a stop before the changes settled) reads the index from storage.local once and keeps its text.
 */
export class IndexMemory {
  private text: Promise<string> | null = null;
  /** The index as its last change wrote it, not made into text yet. */
  private changed: { value: unknown } | null = null;
  private settling: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private storage: IndexStorage,
    private kept: SearchTextStore = nothingKept(),
    settleMs = SETTLE_MS,
  ) {
    storage.onChanged.addListener((changes) => {
      const change = changes[KEY];
      if (!change) return;
      this.changed = { value: change.newValue };
      this.text = null;
      if (this.settling) clearTimeout(this.settling);
      this.settling = setTimeout(() => {
        this.settling = null;
        const version = this.kept.version;
        void this.load().then((text) => this.kept.write(text, version));
      }, settleMs);
    });
  }

  /**
   * Saved pages whose URL key holds every one of the words (lower case), at most `max`: the index knows keys
   * (normalised URLs, a comparison key and no address to open) and ids, nothing more, and answers without a request.
   */
  async matching(words: readonly string[], max: number): Promise<IndexMatch[]> {
    if (words.length === 0) return [];
    const found = matchingLines(await this.load(), words, max);
    if (found) return found;
    this.text = this.rebuilt();
    return matchingLines(await this.text, words, max) ?? [];
  }

  /**
   * The text, read now if it is not in memory yet: called when the user enters the keyword (`sh` and a space),
   * so that the read is over before the first word's keystrokes rather than behind them.
   */
  load(): Promise<string> {
    if (this.text) return this.text;
    const changed = this.changed;
    this.changed = null;
    return (this.text = changed ? Promise.resolve(textOf(changed.value)) : this.kept.read().then((text) => text ?? this.rebuilt()));
  }

  /** The text built from the index in storage.local, and kept. */
  private async rebuilt(): Promise<string> {
    const version = this.kept.version;
    const text = textOf((await this.storage.get(KEY))[KEY]);
    await this.kept.write(text, version);
    return text;
  }
}

const textOf = (stored: unknown) => searchTextOf(savedIndexItem.from(stored).entries);
