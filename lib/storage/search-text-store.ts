import { StoredSearchText } from './index-search-text.ts';

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
const KEY = 'current';

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
 * The search text in IndexedDB, one value: the structured clone of one string is a copy, where storage.local
 * hands the worker a JSON value to parse. Where IndexedDB cannot be opened (a test's Node, a browser that refuses
 * it), every read answers null and the index is read from storage.local, as before this store existed. The database
 * is opened when the store is made, at the background's start: opened at the keyword's read, its open (2-98 ms in a
 * restarted worker at load 8-12) came before the read, behind the first word.
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
    tx.objectStore(STORE).delete(KEY);
    await committed(tx);
  };
  return new SearchTextStore({
    async get() {
      try {
        const db = await database();
        const parsed = StoredSearchText.safeParse(await request(db.transaction(STORE).objectStore(STORE).get(KEY)));
        return parsed.success ? parsed.data.text : null;
      } catch {
        return null;
      }
    },
    async put(text) {
      try {
        const tx = (await database()).transaction(STORE, 'readwrite');
        tx.objectStore(STORE).put(StoredSearchText.parse({ version: 1, text }), KEY);
        await committed(tx);
      } catch {
        // Not kept: an older text kept would answer for an index that has changed, so it goes.
        await remove().catch(() => undefined);
      }
    },
    remove,
  });
}
