import { type SearchText, StoredSearchIds, StoredSearchKeys } from './index-search-text.ts';

/**
 * The search text as read: the keys, and the ids, which land after them (a keystroke waits for the keys alone).
 * Each is null when none is stored, or what is stored is not one.
 */
export interface SearchTextRead {
  keys: Promise<string | null>;
  ids: Promise<string | null>;
}

/** Where the search text is stored: IndexedDB in the browser, memory in tests. */
export interface TextSlot {
  get(): SearchTextRead;
  /** Both texts together: neither is ever kept without the other. */
  put(text: SearchText): Promise<void>;
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

  read(): SearchTextRead {
    return this.slot.get();
  }

  /** Keeps `text` unless the index has been written since `version`. */
  write(text: SearchText, version: number): Promise<void> {
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
  new SearchTextStore({ get: () => ({ keys: Promise.resolve(null), ids: Promise.resolve(null) }), put: () => Promise.resolve(), remove: () => Promise.resolve() });

const DATABASE = 'shelf-index';
const STORE = 'searchText';
const KEYS = 'keys';
const IDS = 'ids';
/** The earlier version's one text of keys and ids: removed with the texts, so that it is never left behind. */
const EARLIER = 'current';

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
 * The search text in IndexedDB, two values (the keys, then the ids) read in one transaction: the structured clone of
 * one string is a copy, where storage.local hands the worker a JSON value to parse. Where IndexedDB cannot be opened (a test's Node, a browser that refuses
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
    for (const key of [KEYS, IDS, EARLIER]) tx.objectStore(STORE).delete(key);
    await committed(tx);
  };
  return new SearchTextStore({
    get() {
      const reads = database().then((db) => {
        const store = db.transaction(STORE).objectStore(STORE);
        return { keys: request(store.get(KEYS)), ids: request(store.get(IDS)) };
      });
      const keys = reads.then(async (r) => {
        const parsed = StoredSearchKeys.safeParse(await r.keys);
        return parsed.success ? parsed.data.keys : null;
      });
      const ids = reads.then(async (r) => {
        const parsed = StoredSearchIds.safeParse(await r.ids);
        return parsed.success ? parsed.data.ids : null;
      });
      return { keys: keys.catch(() => null), ids: ids.catch(() => null) };
    },
    async put({ keys, ids }) {
      try {
        const tx = (await database()).transaction(STORE, 'readwrite');
        const store = tx.objectStore(STORE);
        store.put(StoredSearchKeys.parse({ version: 2, keys }), KEYS);
        store.put(StoredSearchIds.parse({ version: 2, ids }), IDS);
        store.delete(EARLIER);
        await committed(tx);
      } catch {
        // Not kept: an older text kept would answer for an index that has changed, so it goes.
        await remove().catch(() => undefined);
      }
    },
    remove,
  });
}
