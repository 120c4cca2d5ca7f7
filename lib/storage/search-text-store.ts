import { StoredSearchText } from './index-search-text.ts';

/** Where the index's search text is kept between background starts. */
export interface SearchTextStore {
  /** The kept text; null when none is kept, or what is kept is not one. */
  read(): Promise<string | null>;
  write(text: string): Promise<void>;
}

const DATABASE = 'shelf-index';
const STORE = 'searchText';
const KEY = 'current';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/**
 * The search text in IndexedDB, one value: the structured clone of one string is a copy, where storage.local
 * hands the worker a JSON value to parse. Where IndexedDB cannot be opened (a test's Node, a browser that refuses
 * it), every read answers null and the index is read from storage.local, as before this store existed.
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
  return {
    async read() {
      try {
        const db = await database();
        const parsed = StoredSearchText.safeParse(await request(db.transaction(STORE).objectStore(STORE).get(KEY)));
        return parsed.success ? parsed.data.text : null;
      } catch {
        return null;
      }
    },
    async write(text) {
      try {
        const db = await database();
        const tx = db.transaction(STORE, 'readwrite');
        tx.objectStore(STORE).put(StoredSearchText.parse({ version: 1, text }), KEY);
        await new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write failed'));
        });
      } catch {
        // Not kept: an older text kept would answer for an index that has changed, so it goes, and the next
        // background reads the index from storage.local and tries again.
        await database()
          .then((db) => request(db.transaction(STORE, 'readwrite').objectStore(STORE).delete(KEY)))
          .catch(() => undefined);
      }
    },
  };
}
