import { storage } from 'wxt/utils/storage';
import type { z } from 'zod';

type StorageKey = `local:${string}` | `session:${string}`;

export interface TypedItem<T> {
  get(): Promise<T>;
  set(value: T): Promise<void>;
  watch(callback: (value: T) => void): () => void;
}

/**
 * A storage item whose value is checked with a zod schema on every read. A
 * stored value that no longer fits is an error for settings (so that a token is
 * never silently replaced by a default) and simply absent for caches.
 */
export function typedItem<S extends z.ZodType>(
  key: StorageKey,
  schema: S,
  options: { fallback: z.output<S>; onInvalid: 'throw' | 'fallback' },
): TypedItem<z.output<S>> {
  const item = storage.defineItem<unknown>(key);
  const read = (raw: unknown): z.output<S> => {
    if (raw === null || raw === undefined) return options.fallback;
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    if (options.onInvalid === 'fallback') return options.fallback;
    throw new Error(`Stored ${key} is unreadable: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  };
  return {
    get: async () => read(await item.getValue()),
    set: (value) => item.setValue(schema.parse(value)),
    watch: (callback) => item.watch((raw) => callback(read(raw))),
  };
}
