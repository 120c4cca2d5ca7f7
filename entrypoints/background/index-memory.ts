import { type IndexMatch, matchingLines, searchTextOf } from '../../lib/storage/index-search-text.ts';
import { savedIndexItem } from '../../lib/storage/items.ts';
import type { SearchTextStore } from '../../lib/storage/search-text-store.ts';

/** What the memory needs of `browser.storage.local`. */
export interface IndexStorage {
  get(key: string): Promise<Record<string, unknown>>;
  onChanged: { addListener(listener: (changes: Record<string, { newValue?: unknown }>) => void): void };
}
/** The stored index's key in its storage area. */
const KEY = savedIndexItem.key.slice('local:'.length);

/** No store: the index is read from storage.local at each background start. */
const nothingKept: SearchTextStore = { read: () => Promise.resolve(null), write: () => Promise.resolve() };

/**
 * The saved-page index as the address bar searches it (its search text, lib/storage/index-search-text.ts), in the
 * background's memory: read once (when the keyword is entered after the background starts, the event page or worker
 * having lost its memory when it stopped), then replaced from storage's own change events whoever wrote the index,
 * so that a keystroke never reads storage. Each change also writes the text to its store, whose read is a few
 * times quicker than the index's own; an index without a kept text (written by an earlier version, or its text
 * lost or corrupt) is read from storage.local once and its text kept.
 */
export class IndexMemory {
  private text: Promise<string> | null = null;
  /** Changes of the index seen: a text built from an earlier read is not kept over a later change's. */
  private changes = 0;

  constructor(
    private storage: IndexStorage,
    private kept: SearchTextStore = nothingKept,
  ) {
    storage.onChanged.addListener((changes) => {
      const change = changes[KEY];
      if (!change) return;
      this.changes++;
      const text = searchTextOf(savedIndexItem.from(change.newValue).entries);
      void this.kept.write(text);
      // A write before the first keystroke is read with the rest then.
      if (this.text) this.text = Promise.resolve(text);
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
   * Reads the index now if it is not in memory yet: called when the user enters the keyword (`sh` and a space),
   * so that the read is over before the first word's keystrokes rather than behind them.
   */
  load(): Promise<string> {
    return (this.text ??= this.kept.read().then((text) => text ?? this.rebuilt()));
  }

  /** The text built from the index itself, and kept. */
  private async rebuilt(): Promise<string> {
    const changes = this.changes;
    const text = searchTextOf(savedIndexItem.from((await this.storage.get(KEY))[KEY]).entries);
    if (this.changes === changes) await this.kept.write(text);
    return text;
  }
}
