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
export function typedItem<S extends z.ZodMiniType>(key: StorageKey, schema: S, options: ItemOptions<S>): TypedItem<z.output<S>> {
  const [area, name] = split(key);
  return {
    ...readItem(key, schema, options),
    async set(value) {
      const checked: unknown = schema.parse(value);
      // null is no value: the key goes, as a fresh install has it.
      if (checked === null || checked === undefined) await browser.storage[area].remove(name);
      else await browser.storage[area].set({ [name]: options.asText ? JSON.stringify(checked) : checked });
    },
  };
}

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
