import { browser } from 'wxt/browser';
import type { ReadItem } from './typed-item.ts';

/**
 * Storage reads that a page's early script (sidepanel-early.js, options-early.js)
 * starts while the page's own JavaScript is still loading, for the page to take
 * when it wants the value: the read has mostly answered by then. Handed over
 * unchecked (an early script loads no schemas); the page checks each with its
 * item's schema, as a read of its own would.
 */

// One page, two bundles: the classic early script and the page's module.
const HOLDER = Symbol.for('shelf.earlyReads');
type HolderWindow = Window & { [HOLDER]?: Map<string, Promise<unknown>> };

/** Run by an early script: reads `key` of local storage now, and answers what it holds. */
export function readEarly(win: Window, key: `local:${string}`): Promise<unknown> {
  return readEarlyTogether(win, [key])[0]!;
}

/** readEarly for several keys in one storage request: answers each key's read, taken by the page on its own. */
export function readEarlyTogether(win: Window, keys: `local:${string}`[]): Promise<unknown>[] {
  const names = keys.map((key) => key.slice('local:'.length));
  const found = browser.storage.local.get(names.length === 1 ? names[0]! : names);
  const holder = ((win as HolderWindow)[HOLDER] ??= new Map());
  return keys.map((key, i) => {
    const read = found.then((values) => values[names[i]!]);
    holder.set(key, read);
    return read;
  });
}

/** The item's value: from the early script's read of its key when there was one (taken once, so that a later read is fresh), from storage otherwise. */
export async function readKept<T>(item: ReadItem<T>, win: Window = window): Promise<T> {
  const reads = (win as HolderWindow)[HOLDER];
  const early = reads?.get(item.key);
  reads?.delete(item.key);
  const read = await early?.then(
    (raw) => ({ raw }),
    () => undefined, // a failed early read: the page reads for itself
  );
  return read ? item.from(read.raw) : item.get();
}
