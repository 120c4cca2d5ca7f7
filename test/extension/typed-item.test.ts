import * as z from 'zod/mini';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { rememberedItem, typedItem } from '../../lib/storage/typed-item.ts';

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

describe('a storage item remembered by the context that writes it', () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(() => vi.restoreAllMocks());
  const remembered = () => rememberedItem(typedItem('local:list', List, { fallback: null, onInvalid: 'fallback', asText: true }));
  const countReads = () => vi.spyOn(fakeBrowser.storage.local, 'get');

  it('reads storage once, then answers from memory, its own writes included', async () => {
    await fakeBrowser.storage.local.set({ list: JSON.stringify(kept) });
    const item = remembered();
    const reads = countReads();
    expect(await item.get()).toEqual(kept);
    expect(await item.get()).toEqual(kept);
    const next = { items: [{ id: 'b', count: 2 }], fetchedAt: 6 };
    await item.set(next);
    expect(await item.get()).toEqual(next);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(await stored('list')).toBe(JSON.stringify(next));
  });

  it('reads storage again after a write it did not make, and sees that value', async () => {
    const item = remembered();
    await item.set(kept);
    const elsewhere = { items: [{ id: 'c', count: 3 }], fetchedAt: 7 };
    await fakeBrowser.storage.local.set({ list: JSON.stringify(elsewhere) });
    const reads = countReads();
    expect(await item.get()).toEqual(elsewhere);
    expect(await item.get()).toEqual(elsewhere);
    expect(reads).toHaveBeenCalledTimes(1);
    await fakeBrowser.storage.local.remove('list');
    expect(await item.get()).toBeNull();
  });

  it('knows its own write by its change event even when that event comes after a later write', async () => {
    const item = remembered();
    const events: (() => Promise<void>)[] = [];
    // Each write's change event held back until both writes are done, then delivered in order.
    const write = fakeBrowser.storage.local.set.bind(fakeBrowser.storage.local);
    vi.spyOn(fakeBrowser.storage.local, 'set').mockImplementation(async (items) => {
      events.push(() => write(items));
    });
    const first = { items: [{ id: 'a', count: 1 }], fetchedAt: 1 };
    const second = { items: [{ id: 'a', count: 2 }], fetchedAt: 2 };
    await item.set(first);
    await item.set(second);
    for (const deliver of events) await deliver();
    const reads = countReads();
    expect(await item.get()).toEqual(second);
    expect(reads).not.toHaveBeenCalled();
  });

  it('writes nothing when asked to store the value it wrote last', async () => {
    const item = remembered();
    await item.set(kept);
    const writes = vi.spyOn(fakeBrowser.storage.local, 'set');
    await item.set({ items: [{ id: 'a', count: 1 }], fetchedAt: 5 });
    expect(writes).not.toHaveBeenCalled();
    await item.set({ items: [], fetchedAt: 5 });
    expect(writes).toHaveBeenCalledTimes(1);
  });

  it('forgets a value whose write failed, and does not keep what it read while its own write was on its way', async () => {
    const item = remembered();
    await item.set(kept);
    vi.spyOn(fakeBrowser.storage.local, 'set').mockRejectedValueOnce(new Error('QUOTA_BYTES quota exceeded'));
    await expect(item.set({ items: [], fetchedAt: 9 })).rejects.toThrow('QUOTA_BYTES');
    expect(await item.get()).toEqual(kept);

    let land!: () => void;
    const write = fakeBrowser.storage.local.set.bind(fakeBrowser.storage.local);
    vi.spyOn(fakeBrowser.storage.local, 'set').mockImplementationOnce((items) => new Promise<void>((resolve) => (land = () => void write(items).then(resolve))));
    const next = { items: [{ id: 'd', count: 4 }], fetchedAt: 10 };
    const writing = item.set(next);
    // Another context writes meanwhile: the memory is forgotten, and storage does not hold `next` yet.
    await fakeBrowser.storage.local.set({ list: JSON.stringify({ items: [], fetchedAt: 11 }) });
    expect(await item.get()).toEqual({ items: [], fetchedAt: 11 });
    land();
    await writing;
    expect(await item.get()).toEqual(next);
  });
});
