import type { Collection } from '../../lib/api/collections.ts';
import type { SmartFolder } from '../../lib/api/smart-folders.ts';
import type { Tag } from '../../lib/api/tags.ts';
import { collectionsCacheItem, tagsCacheItem } from '../../lib/storage/items.ts';
import { smartFoldersCacheItem } from '../../lib/storage/library-items.ts';
import type { Priority } from '../../lib/client/scheduler.ts';
import type { TypedItem } from '../../lib/storage/typed-item.ts';
import type { Account } from './account.ts';

const FRESH_MS = 5 * 60_000;

type Cache<T> = TypedItem<{ items: T[]; fetchedAt: number } | null>;

/**
 * Tags, collections and smart folders for pickers and the side panel, served from a local cache so that the popup
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

  smartFolders(refresh = false): Promise<SmartFolder[]> {
    return this.cached(smartFoldersCacheItem, refresh, async (priority) => (await this.account.client()).call('listSmartFolders', { priority }));
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

  /** After a change whose new list could not be fetched: the next read fetches it. */
  async markCollectionsStale(): Promise<void> {
    const cache = await collectionsCacheItem.get();
    if (cache) await collectionsCacheItem.set({ ...cache, fetchedAt: 0 });
  }

  /** A smart folder created or changed here, or (`null`) the one with `id` deleted: the kept list follows without a request. */
  async keepSmartFolder(id: string, folder: SmartFolder | null): Promise<void> {
    const cache = await smartFoldersCacheItem.get();
    if (!cache) return;
    const others = cache.items.filter((f) => f.id !== id);
    const at = cache.items.findIndex((f) => f.id === id);
    const items = folder === null ? others : at === -1 ? [...others, folder] : cache.items.map((f) => (f.id === id ? folder : f));
    await smartFoldersCacheItem.set({ ...cache, items });
  }

  async clear(): Promise<void> {
    await Promise.all([tagsCacheItem.set(null), collectionsCacheItem.set(null), smartFoldersCacheItem.set(null)]);
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
