import { browser } from 'wxt/browser';
import type * as z from 'zod/mini';

type Area = 'local' | 'session';
export type StorageKey = `${Area}:${string}`;

/** A stored value read through a schema. */
export interface ReadItem<T> {
  /** Where it is stored: area and key. */
  key: StorageKey;
  get(): Promise<T>;
  /** The value as get() answers it, from what was read of the key elsewhere (a page's early script, which loads no schemas). */
  from(raw: unknown): T;
}

export interface TypedItem<T> extends ReadItem<T> {
  set(value: T): Promise<void>;
}

type ItemOptions<S extends z.ZodMiniType> = { fallback: z.output<S>; onInvalid: 'throw' | 'fallback'; asText?: true };

/**
 * A storage item whose value is checked with a zod schema on every read. A
 * stored value that no longer fits is an error for settings (so that a token is
 * never silently replaced by a default) and simply absent for caches.
 * Straight on browser.storage, read only when asked: a page opens with the reads it needs and no others.
 *
 * `asText`: the value is stored as its JSON text. Chromium hands a stored object
 * to the page field by field, much slower than one string that JSON.parse reads
 * (1,000 collections: some 15-40 ms against 3-7 ms), so the large lists that
 * pages open with are kept so. A value an earlier version stored as an object is
 * still read as it is.
 */
/* @__NO_SIDE_EFFECTS__ */
export function typedItem<S extends z.ZodMiniType>(key: StorageKey, schema: S, options: ItemOptions<S>): WrittenItem<z.output<S>> {
  const [area, name] = split(key);
  const read = readItem(key, schema, options);
  /** The value as stored: checked, and as its JSON text for `asText`; null is no value. */
  const storedForm = (value: z.output<S>): { checked: z.output<S>; form: unknown } => {
    const checked: z.output<S> = schema.parse(value);
    return { checked, form: checked === null || checked === undefined ? null : options.asText ? JSON.stringify(checked) : checked };
  };
  // null is no value: the key goes, as a fresh install has it.
  const write = (form: unknown) => (form === null ? browser.storage[area].remove(name) : browser.storage[area].set({ [name]: form }));
  return { ...read, set: async (value) => write(storedForm(value).form), storedForm, write };
}

/** A typed item with what `rememberedItem` builds on: a value's stored form (checked) and the write of one. */
export interface WrittenItem<T> extends TypedItem<T> {
  storedForm(value: T): { checked: T; form: unknown };
  write(form: unknown): Promise<void>;
}

/** Own writes whose change events may still be on their way: writers here write one after another. */
const PENDING_WRITES = 8;

/**
 * The item in this context's memory: read from storage once, then answered from memory, each write going to
 * storage and memory alike. For the large items the background reads again and again and alone writes (the save
 * queue: a burst of 200 quick saves read it 4,000 times, 131 MB through storage). A change event carrying a value
 * this context did not write (another context's, a test's) makes the next read go to storage; its own writes'
 * events are known by their text, as they may come after a later write; so such an item is stored `asText`
 * (Chromium hands an object back with its keys in another order). The values handed out are shared: a caller
 * never changes one in place. A function apart from typedItem, so that the pages' bundles (the popup's) leave it out.
 */
export function rememberedItem<T>(item: WrittenItem<T>): TypedItem<T> {
  const [area, name] = split(item.key);
  const { storedForm, write } = item;
  let value: Promise<T> | null = null;
  /** The stored text of `value` when this context wrote it; null when it was read (or is not known). */
  let valueText: string | null = null;
  let writing = 0;
  const pending: string[] = [];
  const forget = () => {
    value = null;
    valueText = null;
  };
  browser.storage.onChanged.addListener((changes, changedArea) => {
    const change = changes[name];
    if (changedArea !== area || change === undefined) return;
    const at = pending.indexOf(textOf(change.newValue ?? null));
    if (at === -1) forget();
    else pending.splice(at, 1);
  });
  return {
    key: item.key,
    from: item.from,
    get() {
      if (value) return value;
      const reading = item.get();
      // Storage may not hold an own write on its way yet: what is read meanwhile is not kept.
      if (writing === 0) {
        value = reading;
        // A failed read is not kept either: the next one tries storage again.
        reading.catch(() => {
          if (value === reading) forget();
        });
      }
      return reading;
    },
    async set(next) {
      const { checked, form } = storedForm(next);
      const text = textOf(form);
      // Storage already holds it: Chromium would fire no change event for it, and its text would wait in `pending`.
      if (value !== null && text === valueText) return;
      pending.push(text);
      if (pending.length > PENDING_WRITES) pending.shift();
      value = Promise.resolve(checked);
      valueText = text;
      writing++;
      try {
        await write(form);
      } catch (err) {
        forget();
        throw err;
      } finally {
        writing--;
      }
    },
  };
}

/** A stored form as text, to know an own write's change event: the text itself for `asText` items. */
const textOf = (form: unknown): string => (typeof form === 'string' ? form : JSON.stringify(form));

/**
 * The stored value at `key` read with `schema`, and never written through it:
 * also a view of a typed item through a slimmer schema that checks, and keeps,
 * only the fields a page needs first (the options page's Collections tree).
 */
/* @__NO_SIDE_EFFECTS__ */
export function readItem<S extends z.ZodMiniType>(key: StorageKey, schema: S, options: ItemOptions<S>): ReadItem<z.output<S>> {
  const [area, name] = split(key);
  const read = (raw: unknown): z.output<S> => {
    if (raw === null || raw === undefined) return options.fallback;
    const parsed = schema.safeParse(options.asText && typeof raw === 'string' ? parseJson(raw) : raw);
    if (parsed.success) return parsed.data;
    if (options.onInvalid === 'fallback') return options.fallback;
    throw new Error(`Stored ${key} is unreadable: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  };
  return { key, get: async () => read((await browser.storage[area].get(name))[name]), from: read };
}

/** Text that is no JSON is a value no schema accepts. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function split(key: StorageKey): [Area, string] {
  const at = key.indexOf(':');
  return [key.slice(0, at) as Area, key.slice(at + 1)];
}
