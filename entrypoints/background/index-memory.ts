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

/** The text as it comes in: its first lines, then the whole (the same string where the text was built here). */
interface Arriving {
  head: Promise<string>;
  whole: Promise<string>;
}

const arrived = (text: Promise<string>): Arriving => ({ head: text, whole: text });

/**
 * The saved-page index as the address bar searches it (its search text, lib/storage/index-search-text.ts), in the
 * background's memory, so that a keystroke never reads storage. An index change (seen in storage's own change
 * events) makes the text in memory stale; it is built from the change when a keystroke needs it or once the changes
 * settle, and then kept (its store's read is a few times quicker than the index's own) for the next background. A
 * background with nothing in memory reads the kept text when the keyword is entered (the event page or worker
 * having lost its memory when it stopped): its head first, which answers a keystroke whose matches it holds before
 * the rest is read. One without a kept text (an earlier version's, a text lost or corrupt, or a stop before the
 * changes settled) reads the index from storage.local once and keeps its text.
 */
export class IndexMemory {
  private text: Arriving | null = null;
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
   * The first `max` in the index's order are the answer, so `max` found in the head are final without the rest.
   */
  async matching(words: readonly string[], max: number): Promise<IndexMatch[]> {
    if (words.length === 0) return [];
    const text = this.arriving();
    const head = await text.head;
    const fromHead = matchingLines(head, words, max);
    if (fromHead?.length === max) return fromHead;
    const whole = await text.whole;
    const found = whole === head ? fromHead : matchingLines(whole, words, max);
    if (found) return found;
    const rebuilt = this.rebuilt();
    this.text = arrived(rebuilt);
    return matchingLines(await rebuilt, words, max) ?? [];
  }

  /**
   * The whole text, read now if it is not in memory yet: called when the user enters the keyword (`sh` and a space),
   * so that the read is over, or under way, before the first word's keystrokes rather than behind them.
   */
  load(): Promise<string> {
    return this.arriving().whole;
  }

  private arriving(): Arriving {
    if (this.text) return this.text;
    const changed = this.changed;
    this.changed = null;
    if (changed) return (this.text = arrived(Promise.resolve(textOf(changed.value))));
    const read = this.kept.read();
    const whole = read.whole.then((text) => text ?? this.rebuilt());
    // No head (nothing kept, or not of its form): the keystroke waits for the whole, read or rebuilt.
    return (this.text = { head: read.head.then((head) => head ?? whole), whole });
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
