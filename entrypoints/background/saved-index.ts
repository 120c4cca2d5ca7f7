import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { savedIndexItem } from '../../lib/storage/items.ts';
import { normaliseUrl } from '../../lib/url.ts';
import type { Account } from './account.ts';

const PAGE = 200;

/**
 * Which pages are saved, kept locally (normalised URL → bookmark id) so that the
 * toolbar icon never sends the URLs a user visits to the server.
 */
export class SavedIndex {
  constructor(private account: Account) {}

  async lookup(url: string): Promise<string | null> {
    const { entries } = await savedIndexItem.get();
    return entries[normaliseUrl(url)] ?? null;
  }

  async remember(bookmark: Pick<Bookmark, 'id' | 'url'>): Promise<void> {
    const index = await savedIndexItem.get();
    await savedIndexItem.set({ ...index, entries: { ...index.entries, [normaliseUrl(bookmark.url)]: bookmark.id } });
  }

  async forget(bookmark: Pick<Bookmark, 'id' | 'url'>): Promise<void> {
    const index = await savedIndexItem.get();
    const key = normaliseUrl(bookmark.url);
    if (index.entries[key] !== bookmark.id) return;
    const { [key]: _gone, ...entries } = index.entries;
    await savedIndexItem.set({ ...index, entries });
  }

  async clear(): Promise<void> {
    await savedIndexItem.set({ entries: {}, syncedAt: null });
  }

  /** Rebuilds the index from the whole library: 200 bookmarks a request, oldest first so a new save cannot shift pages. */
  async sync(now = Date.now()): Promise<number> {
    const client = await this.account.client();
    const entries: Record<string, string> = {};
    let cursor: string | undefined;
    do {
      const page = await client.call('listBookmarks', { query: { limit: String(PAGE), sortBy: 'oldest', ...(cursor && { cursor }) } });
      for (const b of page.data) entries[normaliseUrl(b.url)] = b.id;
      cursor = page.cursor ?? undefined;
    } while (cursor);
    await savedIndexItem.set({ entries, syncedAt: now });
    return Object.keys(entries).length;
  }
}
