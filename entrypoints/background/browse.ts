import type { Bookmark, BookmarkSort } from '../../lib/api/bookmarks.ts';
import type { BulkResult } from '../../lib/api/bulk.ts';
import type { BulkAction, BrowseSource } from '../../lib/messaging/library-requests.ts';
import type { BrowsePage } from '../../lib/messaging/library-replies.ts';
import { firstPageItem, firstPageKeysItem } from '../../lib/storage/library-items.ts';
import type { Account } from './account.ts';
import type { Library } from './library.ts';
import type { SavedIndex } from './saved-index.ts';

/** The API's page sizes: collections list 100 at most, bookmarks by tag 200 (and no cursor). */
const LIST_PAGE = '100';
const COLLECTION_PAGE = '100';
const TAG_PAGE = 200;
/** Unsorted has no filter of its own: pages of the whole list are read until this many are found, or this many pages. */
const UNSORTED_WANTED = 50;
const UNSORTED_MAX_PAGES = 5;
const SEARCH_LIMIT = 50;
/** How many lists' first pages are kept for an instant open. */
const KEPT_FIRST_PAGES = 12;

const page = (bookmarks: Bookmark[], cursor: string | null, limitNote: string | null = null): BrowsePage => ({ bookmarks, cursor, limitNote });

/** The API sorts favourites by title or domain only within the most recently saved ones (its favourites window). */
const favoritesWindowNote = (shown: number): string =>
  `Only your ${shown} most recently saved favourites are sorted here. Sort by newest or oldest to see them all.`;

const samePage = (a: BrowsePage, b: BrowsePage): boolean =>
  a.cursor === b.cursor && a.limitNote === b.limitNote && JSON.stringify(a.bookmarks) === JSON.stringify(b.bookmarks);

/** The library's lists for the side panel, page by page with each listing's own cursor and limit, and the actions on many bookmarks. */
export class Browse {
  constructor(
    private account: Account,
    private index: SavedIndex,
    private library: Library,
    private onSavedChange: () => void,
  ) {}

  /**
   * A page of a list in the order asked (newest first by default); the first one in that order is also kept, for
   * the pages to show at once the next time the list opens (the side panel's opening reads know no other order).
   */
  async page(source: BrowseSource, cursor?: string, sort: BookmarkSort = 'newest'): Promise<BrowsePage> {
    if (cursor !== undefined || sort !== 'newest') return this.fetchPage(source, cursor, sort);
    const key = JSON.stringify(source);
    const first = await this.fetchPage(source);
    // Kept again only when it changed: its keptAt is the version the panel's kept paint is of (sidepanel/snapshot.ts).
    const item = firstPageItem(key);
    const kept = await item.get();
    if (!kept || !samePage(kept, first)) await item.set({ ...first, keptAt: Date.now() });
    const keys = [key, ...(await firstPageKeysItem.get()).filter((k) => k !== key)];
    await Promise.all(keys.slice(KEPT_FIRST_PAGES).map((k) => firstPageItem(k).set(null)));
    await firstPageKeysItem.set(keys.slice(0, KEPT_FIRST_PAGES));
    return first;
  }

  /** At sign-out: the next account sees none of this one's pages. */
  async clear(): Promise<void> {
    const keys = await firstPageKeysItem.get();
    await Promise.all(keys.map((k) => firstPageItem(k).set(null)));
    await firstPageKeysItem.set([]);
  }

  private async fetchPage(source: BrowseSource, cursor?: string, sort: BookmarkSort = 'newest'): Promise<BrowsePage> {
    return this.learnt(await this.listPage(source, cursor, sort));
  }

  /** A page as the server listed it, with the bookmarks the saved-page index did not know taught to it. */
  private async learnt<T extends BrowsePage | Bookmark[]>(listed: T): Promise<T> {
    if (await this.index.learn(Array.isArray(listed) ? listed : listed.bookmarks)) this.onSavedChange();
    return listed;
  }

  private async listPage(source: BrowseSource, cursor: string | undefined, sortBy: BookmarkSort): Promise<BrowsePage> {
    const client = await this.account.client();
    const from = cursor ? { cursor } : {};
    switch (source.kind) {
      case 'all':
      case 'favorites': {
        const favorites = source.kind === 'favorites' ? { isFavorite: 'true' as const } : {};
        const list = await client.call('listBookmarks', { query: { limit: LIST_PAGE, sortBy, ...favorites, ...from } });
        return page(list.data, list.cursor, list.truncated ? favoritesWindowNote(list.data.length) : null);
      }
      case 'collection': {
        // The collection's own list is newest first only; the other orders are the whole list's, filtered to it.
        if (sortBy !== 'newest') {
          const list = await client.call('listBookmarks', { query: { limit: LIST_PAGE, sortBy, collectionId: source.id, ...from } });
          return page(list.data, list.cursor);
        }
        const list = await client.call('collectionBookmarks', { params: { id: source.id }, query: { limit: COLLECTION_PAGE, ...from } });
        return page(list.bookmarks, list.continueCursor);
      }
      // The API lists a tag's bookmarks in one order only: what the lists offer no other for (sortableSource).
      case 'tag': {
        const list = await client.call('tagBookmarksById', { params: { id: source.id }, query: { limit: String(TAG_PAGE) } });
        const note = list.bookmarks.length >= TAG_PAGE ? `Only the first ${TAG_PAGE} bookmarks with this tag are shown here. To see them all, make a smart folder for this tag.` : null;
        return page(list.bookmarks, null, note);
      }
      case 'unsorted':
        return this.unsorted(cursor, sortBy);
    }
  }

  async search(q: string, limit = SEARCH_LIMIT): Promise<Bookmark[]> {
    return this.learnt(await (await this.account.client()).call('searchBookmarks', { query: { q, limit: String(limit) } }));
  }

  /** One bulk request (the pages split a selection into requests of at most 50); the local index follows. */
  async bulk(action: BulkAction, ids: string[]): Promise<BulkResult> {
    const client = await this.account.client();
    switch (action.type) {
      case 'move':
        return client.call('bulkMove', { body: { ids, collectionId: action.collectionId } });
      case 'favorite':
        return client.call('bulkFavorite', { body: { ids, isFavorite: action.isFavorite } });
      case 'tag': {
        const result = await client.call('bulkTag', { body: { ids, name: action.name } });
        await this.library.markTagsStale();
        return result;
      }
      case 'untag': {
        const result = await client.call('bulkUntag', { body: { ids, tagId: action.tagId } });
        await this.library.markTagsStale();
        return result;
      }
      case 'trash': {
        const result = await client.call('bulkTrash', { body: { ids } });
        await this.index.forgetIds(result.ids);
        this.onSavedChange();
        return result;
      }
      case 'check':
        return client.call('bulkCheck', { body: { ids } });
    }
  }

  async restore(id: string): Promise<Bookmark> {
    const bookmark = await (await this.account.client()).call('restoreBookmark', { params: { id } });
    await this.index.remember(bookmark);
    this.onSavedChange();
    return bookmark;
  }

  private async unsorted(cursor: string | undefined, sortBy: BookmarkSort): Promise<BrowsePage> {
    const client = await this.account.client();
    const found: Bookmark[] = [];
    let next = cursor ?? null;
    for (let pages = 0; pages < UNSORTED_MAX_PAGES && found.length < UNSORTED_WANTED; pages++) {
      const list = await client.call('listBookmarks', { query: { limit: '200', sortBy, ...(next && { cursor: next }) } });
      found.push(...list.data.filter((b) => b.collectionId === null));
      next = list.cursor;
      if (next === null) break;
    }
    return page(found, next);
  }
}
