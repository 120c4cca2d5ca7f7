import * as z from 'zod/mini';

/** Where one text is stored: IndexedDB in the browser, memory in tests. */
export interface TextSlot {
  /** The stored text; null when none is stored, or what is stored is not one. */
  get(): Promise<string | null>;
  put(text: string): Promise<void>;
  /** May fail (the text may still be there). */
  remove(): Promise<void>;
}

/**
 * The index's search text kept between background starts, never older than the index: the index's writer calls
 * `stale()` before each write, which removes the kept text (so that a stop between the two leaves none, and the next
 * reader builds it from the index) and refuses every text built before it. A text is written with the `version` read
 * when it was built from the index.
 */
export class SearchTextStore {
  private current = 0;
  /** False once removed and not written since: a burst of index writes removes it once. */
  private mayHoldText = true;
  private removed: Promise<void> = Promise.resolve();

  constructor(private slot: TextSlot) {}

  /** Counts the index's writes begun in this background. */
  get version(): number {
    return this.current;
  }

  read(): Promise<string | null> {
    return this.slot.get();
  }

  /** Keeps `text` unless the index has been written since `version`. */
  write(text: string, version: number): Promise<void> {
    if (version !== this.current) return Promise.resolve();
    this.mayHoldText = true;
    return this.slot.put(text);
  }

  /** Called before the index is written; settles once no text is kept. */
  stale(): Promise<void> {
    this.current++;
    if (this.mayHoldText) {
      this.mayHoldText = false;
      // Slot calls run in the order made (IndexedDB's transactions on one store do): a write made before this removal lands before it.
      // Not removed (IndexedDB failing now): tried again at the next write of the index.
      this.removed = this.slot.remove().catch(() => void (this.mayHoldText = true));
    }
    return this.removed;
  }
}

/** Nothing kept: the index is read from storage.local at each background start (Node's tests, which have no IndexedDB). */
export const nothingKept = (): SearchTextStore =>
  new SearchTextStore({ get: () => Promise.resolve(null), put: () => Promise.resolve(), remove: () => Promise.resolve() });

const DATABASE = 'shelf-index';
const STORE = 'searchText';

/**
 * The most characters in one stored part of the text. Chromium's IndexedDB keeps a value of over 64 KiB (its
 * serialised bytes) in a blob file of its own, and the read of that file is what made the whole text's read slow in
 * a restarted worker (23-145 ms for 918,087 characters); smaller values are read with the database's own records.
 * A character takes at most 2 bytes, so a part of 30,000 stays under the limit whatever it holds.
 */
export const PART_CHARS = 30_000;

/** One part of the text, under the key `part`; the parts, read in their keys' order and joined, are the text. */
const StoredPart = z.object({ version: z.literal(2), part: z.number(), parts: z.number(), text: z.string() });
type StoredPart = z.infer<typeof StoredPart>;

/** The text cut in parts of at most PART_CHARS (one part, empty, for an empty text: an index of no page is kept too). */
export function partsOf(text: string): StoredPart[] {
  const parts = Math.max(1, Math.ceil(text.length / PART_CHARS));
  return Array.from({ length: parts }, (_, part) => ({ version: 2, part, parts, text: text.slice(part * PART_CHARS, (part + 1) * PART_CHARS) }));
}

/**
 * The text the stored values make, in their keys' order; null unless they are every part of one text, each in its
 * place (an earlier version's single value, a part lost or of another write, or no value at all).
 */
export function joinedParts(values: readonly unknown[]): string | null {
  const texts: string[] = [];
  for (const [at, value] of values.entries()) {
    const parsed = StoredPart.safeParse(value);
    if (!parsed.success || parsed.data.part !== at || parsed.data.parts !== values.length) return null;
    texts.push(parsed.data.text);
  }
  return texts.length === 0 ? null : texts.join('');
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
  });
}

/**
 * The search text in IndexedDB, in parts (PART_CHARS) written and read in one transaction each: the structured clone
 * of a string is a copy, where storage.local hands the worker a JSON value to parse. Where IndexedDB cannot be opened
 * (a test's Node, a browser that refuses it), every read answers null and the index is read from storage.local, as
 * before this store existed.
 */
export function indexedDbSearchText(factory: IDBFactory | undefined = globalThis.indexedDB): SearchTextStore {
  let opened: Promise<IDBDatabase> | null = null;
  const database = () => {
    if (!factory) return Promise.reject(new Error('IndexedDB is not available'));
    return (opened ??= (() => {
      const open = factory.open(DATABASE, 1);
      open.onupgradeneeded = () => open.result.createObjectStore(STORE);
      const ready = request(open);
      // A failed open is tried again at the next use rather than kept.
      ready.catch(() => (opened = null));
      return ready;
    })());
  };
  const remove = async () => {
    const tx = (await database()).transaction(STORE, 'readwrite');
    tx.objectStore(STORE).clear();
    await committed(tx);
  };
  return new SearchTextStore({
    async get() {
      try {
        const db = await database();
        return joinedParts(await request(db.transaction(STORE).objectStore(STORE).getAll()));
      } catch {
        return null;
      }
    },
    async put(text) {
      try {
        const tx = (await database()).transaction(STORE, 'readwrite');
        const store = tx.objectStore(STORE);
        // The earlier text's parts (and an earlier version's single value) go with the same transaction.
        store.clear();
        for (const part of partsOf(text)) store.put(part, part.part);
        await committed(tx);
      } catch {
        // Not kept: an older text kept would answer for an index that has changed, so it goes.
        await remove().catch(() => undefined);
      }
    },
    remove,
  });
}
