import type { Collection } from '../../lib/api/collections.ts';
import type { Tag } from '../../lib/api/tags.ts';
import { collectionsCacheItem, tagsCacheItem } from '../../lib/storage/items.ts';
import type { Priority } from '../../lib/client/scheduler.ts';
import type { TypedItem } from '../../lib/storage/typed-item.ts';
import type { Account } from './account.ts';

const FRESH_MS = 5 * 60_000;

type Cache<T> = TypedItem<{ items: T[]; fetchedAt: number } | null>;

/**
 * Tags and collections for pickers, served from a local cache so that the popup
 * shows them at once; a stale cache is answered and refreshed behind it.
 */
export class Library {
  constructor(private account: Account) {}

  tags(refresh = false): Promise<Tag[]> {
    return this.cached(tagsCacheItem, refresh, async (priority) => (await this.account.client()).call('listTags', { priority }));
  }

  collections(refresh = false): Promise<Collection[]> {
    return this.cached(collectionsCacheItem, refresh, async (priority) => (await this.account.client()).call('listCollections', { priority }));
  }

  async addCollection(collection: Collection): Promise<void> {
    const cache = await collectionsCacheItem.get();
    if (cache) await collectionsCacheItem.set({ ...cache, items: [...cache.items, collection] });
  }

  /** After a save with new tag names: the next read fetches tags again. */
  async markTagsStale(): Promise<void> {
    const cache = await tagsCacheItem.get();
    if (cache) await tagsCacheItem.set({ ...cache, fetchedAt: 0 });
  }

  async clear(): Promise<void> {
    await Promise.all([tagsCacheItem.set(null), collectionsCacheItem.set(null)]);
  }

  private async cached<T>(item: Cache<T>, refresh: boolean, fetch: (priority: Priority) => Promise<T[]>): Promise<T[]> {
    const cache = await item.get();
    const load = async (priority: Priority) => {
      const items = await fetch(priority);
      await item.set({ items, fetchedAt: Date.now() });
      return items;
    };
    if (!cache || refresh) return load('user');
    // The cached list is answered now; a failed refresh leaves it as it was and the next read tries again.
    if (Date.now() - cache.fetchedAt > FRESH_MS) void load('background').catch(() => undefined);
    return cache.items;
  }
}
