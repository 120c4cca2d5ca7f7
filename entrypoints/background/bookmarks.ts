import type { Bookmark, CreateBookmarkBody, PatchBookmarkBody } from '../../lib/api/bookmarks.ts';
import { ClientError } from '../../lib/client/errors.ts';
import { lastCollectionItem } from '../../lib/storage/items.ts';
import type { Account } from './account.ts';
import type { Library } from './library.ts';
import type { SavedIndex } from './saved-index.ts';

/** Saving and editing bookmarks, keeping the local index and caches in step with each answer. */
export class Bookmarks {
  constructor(
    private account: Account,
    private index: SavedIndex,
    private library: Library,
    private onSavedChange: (url: string) => void,
  ) {}

  /** One request: everything the user chose travels in the single POST. */
  async save(input: CreateBookmarkBody): Promise<Bookmark> {
    const bookmark = await (await this.account.client()).call('createBookmark', { body: input });
    await this.index.remember(bookmark);
    if (input.collectionId !== undefined) await lastCollectionItem.set(input.collectionId);
    if (input.tags?.length) await this.library.markTagsStale();
    this.onSavedChange(bookmark.url);
    return bookmark;
  }

  async update(id: string, patch: PatchBookmarkBody): Promise<Bookmark> {
    const bookmark = await (await this.account.client()).call('updateBookmark', { params: { id }, body: patch });
    await this.index.remember(bookmark);
    if (patch.tags?.length) await this.library.markTagsStale();
    this.onSavedChange(bookmark.url);
    return bookmark;
  }

  async trash(id: string): Promise<Bookmark> {
    const bookmark = await (await this.account.client()).call('trashBookmark', { params: { id } });
    await this.index.forget(bookmark);
    this.onSavedChange(bookmark.url);
    return bookmark;
  }

  /** The saved bookmark for a page: nothing asked of the server unless the index says it is saved. */
  async lookup(url: string): Promise<Bookmark | null> {
    const id = await this.index.lookup(url);
    if (id === null) return null;
    try {
      const bookmark = await (await this.account.client()).call('getBookmark', { params: { id } });
      if (!bookmark.deletedAt) return bookmark;
      await this.index.forget(bookmark);
      return null;
    } catch (err) {
      if (!(err instanceof ClientError) || err.code !== 'NOT_FOUND') throw err;
      await this.index.forget({ id, url });
      return null;
    }
  }
}
