import { browser } from 'wxt/browser';
import type * as z from 'zod/mini';

type Area = 'local' | 'session';
export type StorageKey = `${Area}:${string}`;

export interface TypedItem<T> {
  /** Where it is stored: area and key. */
  key: StorageKey;
  get(): Promise<T>;
  /** The value as get() answers it, from what was read of the key elsewhere (a page's early script, which loads no schemas). */
  from(raw: unknown): T;
  set(value: T): Promise<void>;
}

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
export function typedItem<S extends z.ZodMiniType>(
  key: StorageKey,
  schema: S,
  options: { fallback: z.output<S>; onInvalid: 'throw' | 'fallback'; asText?: true },
): TypedItem<z.output<S>> {
  const [area, name] = split(key);
  const storage = () => browser.storage[area];
  const read = (raw: unknown): z.output<S> => {
    if (raw === null || raw === undefined) return options.fallback;
    const parsed = schema.safeParse(options.asText && typeof raw === 'string' ? parseJson(raw) : raw);
    if (parsed.success) return parsed.data;
    if (options.onInvalid === 'fallback') return options.fallback;
    throw new Error(`Stored ${key} is unreadable: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  };
  return {
    key,
    get: async () => read((await storage().get(name))[name]),
    from: read,
    async set(value) {
      const checked: unknown = schema.parse(value);
      // null is no value: the key goes, as a fresh install has it.
      if (checked === null || checked === undefined) await storage().remove(name);
      else await storage().set({ [name]: options.asText ? JSON.stringify(checked) : checked });
    },
  };
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
