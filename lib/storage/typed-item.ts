import { browser } from 'wxt/browser';
import type * as z from 'zod/mini';

type Area = 'local' | 'session';
type StorageKey = `${Area}:${string}`;

export interface TypedItem<T> {
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
 */
/* @__NO_SIDE_EFFECTS__ */
export function typedItem<S extends z.ZodMiniType>(
  key: StorageKey,
  schema: S,
  options: { fallback: z.output<S>; onInvalid: 'throw' | 'fallback' },
): TypedItem<z.output<S>> {
  const [area, name] = split(key);
  const storage = () => browser.storage[area];
  const read = (raw: unknown): z.output<S> => {
    if (raw === null || raw === undefined) return options.fallback;
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    if (options.onInvalid === 'fallback') return options.fallback;
    throw new Error(`Stored ${key} is unreadable: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  };
  return {
    get: async () => read((await storage().get(name))[name]),
    from: read,
    async set(value) {
      const checked: unknown = schema.parse(value);
      // null is no value: the key goes, as a fresh install has it.
      if (checked === null || checked === undefined) await storage().remove(name);
      else await storage().set({ [name]: checked });
    },
  };
}

function split(key: StorageKey): [Area, string] {
  const at = key.indexOf(':');
  return [key.slice(0, at) as Area, key.slice(at + 1)];
}
