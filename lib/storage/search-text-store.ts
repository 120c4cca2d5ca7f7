import * as z from 'zod/mini';

/**
 * The stored text as it is read: its head (the first lines) first, then the whole. Each null when no text is
 * stored, or what is stored is not one; neither ever fails.
 */
export interface TextRead {
  head: Promise<string | null>;
  whole: Promise<string | null>;
}

/** Where one text is stored: IndexedDB in the browser, memory in tests. */
export interface TextSlot {
  get(): TextRead;
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

  read(): TextRead {
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

const NOTHING: TextRead = { head: Promise.resolve(null), whole: Promise.resolve(null) };

/** Nothing kept: the index is read from storage.local at each background start (Node's tests, which have no IndexedDB). */
export const nothingKept = (): SearchTextStore => new SearchTextStore({ get: () => NOTHING, put: () => Promise.resolve(), remove: () => Promise.resolve() });

/**
 * The most characters in the text's head. Chromium's IndexedDB keeps a value of over 64 KiB (its serialised bytes)
 * in a blob file of its own, whose read is what takes a restarted worker's time (the whole text, 918,087 characters:
 * 12-54 ms in a probe); a value under it is read with the database's own records (30,000 characters: mostly under
 * 4 ms). A character takes at most 2 bytes, so a head of 30,000 stays under the limit whatever it holds.
 */
export const HEAD_CHARS = 30_000;

/**
 * One of the text's two parts: the head, whole lines of at most HEAD_CHARS, and the rest. Both are written in one
 * transaction with one `generation`: a rest is joined only to the head written with it.
 */
const StoredPart = z.object({ version: z.literal(2), generation: z.string(), text: z.string() });
type StoredPart = z.infer<typeof StoredPart>;

/**
 * The text cut after the last line break within its first `headChars` characters, so that no line is split: the
 * head then answers a search for whatever it holds (lib/storage/index-search-text.ts), and head + rest is the text.
 */
export function partsOf(text: string, generation: string, headChars = HEAD_CHARS): { head: StoredPart; rest: StoredPart } {
  const cut = text.length <= headChars ? text.length : text.lastIndexOf('\n', headChars - 1) + 1;
  return { head: { version: 2, generation, text: text.slice(0, cut) }, rest: { version: 2, generation, text: text.slice(cut) } };
}

/** The head's text; null when the value is no head of this form (none stored, an earlier version's value, corrupt). */
export function headOf(value: unknown): string | null {
  const parsed = StoredPart.safeParse(value);
  return parsed.success ? parsed.data.text : null;
}

/** The whole text; null unless both values are parts of this form from one write. */
export function joinedParts(head: unknown, rest: unknown): string | null {
  const first = StoredPart.safeParse(head);
  const second = StoredPart.safeParse(rest);
  return first.success && second.success && first.data.generation === second.data.generation ? first.data.text + second.data.text : null;
}

const DATABASE = 'shelf-index';
const STORE = 'searchText';
const HEAD = 'head';
const REST = 'rest';

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
 * The search text in IndexedDB, as a head and the rest (partsOf) written and read in one transaction each: the
 * structured clone of a string is a copy, where storage.local hands the worker a JSON value to parse, and the head's
 * read is answered before the rest's (a transaction's requests are answered in the order made). Where IndexedDB
 * cannot be opened (a test's Node, a browser that refuses it), every read answers null and the index is read from
 * storage.local, as before this store existed. The database is opened when the store is made, at the background's
 * start: opened at the keyword's read, its open (2-98 ms in a restarted worker at load 8-12) came before the read,
 * behind the first word.
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
  if (factory) void database().catch(() => undefined);
  const remove = async () => {
    const tx = (await database()).transaction(STORE, 'readwrite');
    tx.objectStore(STORE).clear();
    await committed(tx);
  };
  return new SearchTextStore({
    get() {
      const requests = database().then((db) => {
        const store = db.transaction(STORE).objectStore(STORE);
        return [request(store.get(HEAD)), request(store.get(REST))] as const;
      });
      const head = requests.then(([value]) => value);
      return {
        head: head.then(headOf, () => null),
        whole: requests.then((both) => Promise.all(both)).then(([first, rest]) => joinedParts(first, rest), () => null),
      };
    },
    async put(text) {
      try {
        const tx = (await database()).transaction(STORE, 'readwrite');
        const store = tx.objectStore(STORE);
        const { head, rest } = partsOf(text, crypto.randomUUID());
        // An earlier version's single value goes with the same transaction.
        store.clear();
        store.put(head, HEAD);
        store.put(rest, REST);
        await committed(tx);
      } catch {
        // Not kept: an older text kept would answer for an index that has changed, so it goes.
        await remove().catch(() => undefined);
      }
    },
    remove,
  });
}
