import { type SearchText, lineAt, lineCount, lineNumberAt, matchingLines, searchTextOf } from '../../lib/storage/index-search-text.ts';
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

/** A saved page whose URL key holds the words; its id is looked up when asked (Enter), null where the text has none for it. */
export interface IndexMatch {
  key: string;
  id(): Promise<string | null>;
}

/** The text in memory: the keys, and their ids once read (null when no kept ids go with these keys). */
interface Held {
  keys: Promise<string>;
  ids: Promise<string | null>;
}

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
  private held: Held | null = null;
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
      this.held = null;
      if (this.settling) clearTimeout(this.settling);
      this.settling = setTimeout(() => {
        this.settling = null;
        const version = this.kept.version;
        const held = this.hold();
        void Promise.all([held.keys, held.ids]).then(([keys, ids]) => (ids === null ? undefined : this.kept.write({ keys, ids }, version)));
      }, settleMs);
    });
  }

  /**
   * Saved pages whose URL key holds every one of the words (lower case), at most `max`: the index knows keys
   * (normalised URLs, a comparison key and no address to open) and ids, nothing more, and answers without a request.
   */
  async matching(words: readonly string[], max: number): Promise<IndexMatch[]> {
    if (words.length === 0) return [];
    let held = this.hold();
    let keys = await held.keys;
    let found = matchingLines(keys, words, max);
    if (!found) {
      held = this.held = this.fromIndex();
      keys = await held.keys;
      found = matchingLines(keys, words, max) ?? [];
    }
    const { ids } = held;
    return found.map(({ key, start }) => ({ key, id: async () => idAt(await ids, lineNumberAt(keys, start)) }));
  }

  /**
   * The keys, read now if they are not in memory yet: called when the user enters the keyword (`sh` and a space),
   * so that the read is over before the first word's keystrokes rather than behind them.
   */
  load(): Promise<string> {
    return this.hold().keys;
  }

  private hold(): Held {
    if (this.held) return this.held;
    const changed = this.changed;
    this.changed = null;
    return (this.held = changed ? whole(Promise.resolve(textOf(changed.value))) : this.fromKept());
  }

  /**
   * The kept text: the keys as soon as they are read, the ids after them. Kept keys without their ids, or with
   * ids of another count, are built again from the index (the matches already made then name no id).
   */
  private fromKept(): Held {
    const read = this.kept.read();
    let rebuilt: Held | null = null;
    // Unless a change of the index has replaced these keys in memory meanwhile.
    const rebuild = (): Held => {
      if (rebuilt) return rebuilt;
      rebuilt = this.fromIndex();
      if (this.held === held) this.held = rebuilt;
      return rebuilt;
    };
    const keys = read.keys.then((kept) => kept ?? rebuild().keys);
    const ids = Promise.all([read.keys, read.ids, keys]).then(([keptKeys, keptIds, current]) => {
      if (keptKeys === null) return rebuild().ids;
      if (keptIds !== null && lineCount(keptIds) === lineCount(current)) return keptIds;
      void rebuild().keys.catch(() => undefined);
      return null;
    });
    const held: Held = { keys, ids: ids.catch(() => null) };
    return held;
  }

  /** The text built from the index in storage.local, and kept. */
  private fromIndex(): Held {
    return whole(
      (async () => {
        const version = this.kept.version;
        const text = textOf((await this.storage.get(KEY))[KEY]);
        await this.kept.write(text, version);
        return text;
      })(),
    );
  }
}

const idAt = (ids: string | null, line: number): string | null => (ids === null ? null : lineAt(ids, line) || null);

function whole(text: Promise<SearchText>): Held {
  return { keys: text.then((t) => t.keys), ids: text.then((t) => t.ids).catch(() => null) };
}

const textOf = (stored: unknown) => searchTextOf(savedIndexItem.from(stored).entries);
