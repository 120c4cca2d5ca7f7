import type { Bookmark, CreateBookmarkBody, PatchBookmarkBody } from '../../lib/api/bookmarks.ts';
import { ClientError, toClientError } from '../../lib/client/errors.ts';
import type { MessageOutput } from '../../lib/messaging/protocol.ts';
import { lastCollectionItem } from '../../lib/storage/items.ts';
import { type Account, notSignedIn } from './account.ts';
import type { Library } from './library.ts';
import type { SavedIndex } from './saved-index.ts';
import { type SaveQueue, shouldQueue } from './save-queue.ts';

const sameBody = (a: CreateBookmarkBody, b: CreateBookmarkBody) => JSON.stringify(a) === JSON.stringify(b);

/** Saving and editing bookmarks, keeping the local index and caches in step with each answer. */
export class Bookmarks {
  constructor(
    private account: Account,
    private index: SavedIndex,
    private library: Library,
    private queue: SaveQueue,
    private onSavedChange: (url: string) => void,
  ) {}

  /**
   * One request: everything the user chose travels in the single POST. When the
   * server cannot take it now (no network, a timeout, a 5xx, a rate limit, a
   * refused token) the save waits in the queue, and the answer says so.
   */
  save(input: CreateBookmarkBody): Promise<MessageOutput<'saveBookmark'>> {
    return this.queue.exclusive(input.url, async () => {
      // The save is this account's from here on: queued, it waits for this account and no other.
      const owner = await this.account.owner();
      if (owner === null) throw notSignedIn();
      const waiting = await this.queue.forUrl(input.url, owner);
      // The same save again keeps its key: its last attempt may have been made. An edit is a new request under a
      // new key (the old key would be refused with another body); the server updates a URL it has, so no second bookmark.
      const key = waiting && sameBody(waiting.body, input) ? waiting.key : crypto.randomUUID();
      try {
        const bookmark = await (await this.account.client(owner)).call('createBookmark', { body: input, idempotencyKey: key });
        if (waiting) await this.queue.remove(owner, input.url);
        await this.saved(bookmark, input);
        // The server answers again: what waited goes now.
        void this.queue.drain(true);
        return { bookmark, queued: null };
      } catch (err) {
        const error = toClientError(err);
        if (!shouldQueue(error)) throw error;
        await this.queue.queueFailure(owner, input, key, error, (waiting?.attempts ?? 0) + 1);
        const queued = await this.queue.forUrl(input.url, owner);
        return { bookmark: null, queued: await this.queue.info(queued!) };
      }
    });
  }

  /** A save reached the server, now or from the queue: the index, the caches and the icon follow. */
  async saved(bookmark: Bookmark, input: CreateBookmarkBody): Promise<void> {
    await this.index.remember(bookmark);
    if (input.collectionId !== undefined) await lastCollectionItem.set(input.collectionId);
    if (input.tags?.length) await this.library.markTagsStale();
    this.onSavedChange(bookmark.url);
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

  /** The page as saved, and as it waits in the queue. */
  async lookup(url: string): Promise<MessageOutput<'lookupUrl'>> {
    const [bookmark, queued] = await Promise.all([this.lookupSaved(url), this.queue.forUrl(url)]);
    return { bookmark, queued: queued && (await this.queue.info(queued)) };
  }

  /** The saved bookmark for a page: nothing asked of the server unless the index says it is saved. */
  private async lookupSaved(url: string): Promise<Bookmark | null> {
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
