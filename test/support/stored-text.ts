/**
 * A value as the extension stores it in browser.storage, read raw by a test: the large items are kept as their
 * JSON text (lib/storage/typed-item.ts's `asText`); absent is `fallback`.
 */
export function storedValue<T>(raw: unknown, fallback: T): T {
  if (raw === undefined || raw === null) return fallback;
  return (typeof raw === 'string' ? JSON.parse(raw) : raw) as T;
}
