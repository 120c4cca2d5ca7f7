import * as z from 'zod/mini';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { typedItem } from '../../lib/storage/typed-item.ts';

const List = z.nullable(z.object({ items: z.array(z.object({ id: z.string(), count: z.number() })), fetchedAt: z.number() }));
const kept = { items: [{ id: 'a', count: 1 }], fetchedAt: 5 };
const stored = async (key: string) => (await fakeBrowser.storage.local.get(key))[key];

describe('a storage item kept as JSON text', () => {
  beforeEach(() => fakeBrowser.reset());
  const item = typedItem('local:list', List, { fallback: null, onInvalid: 'fallback', asText: true });

  it('stores the checked value as its JSON text and reads it back', async () => {
    await item.set(kept);
    expect(await stored('list')).toBe(JSON.stringify(kept));
    expect(await item.get()).toEqual(kept);
    expect(item.from(await stored('list'))).toEqual(kept);
  });

  it('still reads the object an earlier version stored', async () => {
    await fakeBrowser.storage.local.set({ list: kept });
    expect(await item.get()).toEqual(kept);
  });

  it('answers the fallback for text that is no JSON or does not fit, and removes the key for null', async () => {
    for (const bad of ['{"items": [', JSON.stringify({ items: [{ id: 1 }], fetchedAt: 5 }), '42']) {
      await fakeBrowser.storage.local.set({ list: bad });
      expect(await item.get()).toBeNull();
    }
    await item.set(kept);
    await item.set(null);
    expect(await stored('list')).toBeUndefined();
  });

  it('throws for unreadable text when the item must not fall back', async () => {
    const strict = typedItem('local:strict', List, { fallback: null, onInvalid: 'throw', asText: true });
    await fakeBrowser.storage.local.set({ strict: 'not json' });
    await expect(strict.get()).rejects.toThrow(/Stored local:strict is unreadable/);
  });

  it('refuses to store what does not fit, leaving the stored text as it was', async () => {
    await item.set(kept);
    await expect(item.set({ items: [{ id: 'b', count: Number.NaN }], fetchedAt: 6 })).rejects.toThrow();
    expect(await stored('list')).toBe(JSON.stringify(kept));
  });
});
