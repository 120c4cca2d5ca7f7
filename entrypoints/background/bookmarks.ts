import type { Bookmark, CreateBookmarkBody, PatchBookmarkBody } from '../../lib/api/bookmarks.ts';
import { ClientError, toClientError } from '../../lib/client/errors.ts';
import type { MessageOutput } from '../../lib/messaging/protocol.ts';
import type { Priority } from '../../lib/client/scheduler.ts';
import type { ApiClient } from '../../lib/client/api-client.ts';
import { NO_EDITS, type SaveEdits, patchOfEdits } from '../../lib/save-edits.ts';
import type { QueuedSave } from '../../lib/storage/background-items.ts';
import { lastCollectionItem } from '../../lib/storage/items.ts';
import { normaliseUrl } from '../../lib/url.ts';
import { type Account, notSignedIn } from './account.ts';
import type { Library } from './library.ts';
import type { SavedIndex } from './saved-index.ts';
import { type SaveQueue, shouldQueue } from './save-queue.ts';

/** How long the popup's "not saved" check stands for its Save. */
const UNSAVED_CHECK_MS = 5 * 60_000;

const sameBody = (a: CreateBookmarkBody, b: CreateBookmarkBody) => JSON.stringify(a) === JSON.stringify(b);

/** Saving and editing bookmarks, keeping the local index and caches in step with each answer. */
export class Bookmarks {
  constructor(
    private account: Account,
    private index: SavedIndex,
    private library: Library,
    private queue: SaveQueue,
    private onSavedChange: (url: string) => void,
    /** A page was found saved that the index did not know: it should catch up. */
    private onIndexBehind: () => void,
  ) {}

  /** Normalised URL → when the server last said nothing is saved under it. */
  private checkedUnsaved = new Map<string, number>();

  /**
   * Everything the user chose travels in one save. When the server cannot take
   * it now (no network, a timeout, a 5xx, a rate limit, a refused token) the save
   * waits in the queue, and the answer says so. `edits` is what the user changed
   * in the form: all that changes should the URL turn out to be saved already. A quick save waits marked as one.
   */
  save(input: CreateBookmarkBody, edits: SaveEdits = NO_EDITS, options: { quick?: boolean } = {}): Promise<MessageOutput<'saveBookmark'>> {
    return this.queue.exclusive(input.url, async () => {
      // The save is this account's from here on: queued, it waits for this account and no other.
      const owner = await this.account.owner();
      if (owner === null) throw notSignedIn();
      const waiting = await this.queue.forUrl(input.url, owner);
      // The same save again keeps its key: its last attempt may have been made. An edit is a new request under a new key
      // (the old key would be refused with another body).
      const key = waiting && sameBody(waiting.body, input) ? waiting.key : crypto.randomUUID();
      try {
        const { bookmark, existed } = await this.send({ owner, body: input, edits, key }, 'user');
        if (waiting) await this.queue.remove(owner, input.url);
        // The server answers again: what waited goes now.
        void this.queue.drain(true);
        return { bookmark, queued: null, existed };
      } catch (err) {
        const error = toClientError(err);
        if (!shouldQueue(error)) throw error;
        await this.queue.queueFailure({ owner, body: input, edits, key, ...(options.quick && { quick: true }) }, error, (waiting?.attempts ?? 0) + 1);
        const queued = await this.queue.forUrl(input.url, owner);
        return { bookmark: null, queued: await this.queue.info(queued!) };
      }
    });
  }

  /**
   * A save as the server gets it, from the popup or from the queue. Never a POST of
   * a URL that may be saved already: the server would apply the whole form to that
   * bookmark, replacing a title, tags and collection the user never saw. The
   * bookmark under the URL is found first (the index's, else one request by URL);
   * it gets the user's edits alone, and only a URL saved nowhere is POSTed.
   */
  async send(save: OutgoingSave, priority: Priority): Promise<{ bookmark: Bookmark; existed: boolean }> {
    const client = await this.account.client(save.owner);
    // A token that may not save makes no request towards a save.
    client.checkScope('createBookmark');
    const found = await this.findSaved(client, save.body.url, priority, 'save');
    if (found) {
      const edits = save.edits ?? NO_EDITS;
      const patch = patchOfEdits(found, edits);
      const bookmark = Object.keys(patch).length === 0 ? found : await client.call('updateBookmark', { params: { id: found.id }, body: patch, priority });
      await this.saved(bookmark, { url: bookmark.url, ...(edits.collectionId !== undefined && { collectionId: edits.collectionId }), ...(patch.tags && { tags: patch.tags }) });
      return { bookmark, existed: true };
    }
    const bookmark = await client.call('createBookmark', { body: save.body, idempotencyKey: save.key, priority });
    await this.saved(bookmark, save.body);
    return { bookmark, existed: false };
  }

  /** A save reached the server: the index, the caches and the icon follow. */
  private async saved(bookmark: Bookmark, input: CreateBookmarkBody): Promise<void> {
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

  /**
   * The saved-page index has just been brought up to date and lacks this page: its save needs no look-up of its
   * own (for as long as the popup's own check stands).
   */
  vouchUnsaved(url: string): void {
    this.checkedUnsaved.set(normaliseUrl(url), Date.now());
  }

  /** The page as saved, and as it waits in the queue. */
  async lookup(url: string): Promise<MessageOutput<'lookupUrl'>> {
    const [bookmark, queued] = await Promise.all([this.lookupSaved(url), this.queue.forUrl(url)]);
    return { bookmark, queued: queued && (await this.queue.info(queued)) };
  }

  /**
   * The saved bookmark for the popup's page. When the server cannot answer, the
   * popup still offers Save (it may be offline): the save itself finds out first.
   */
  private async lookupSaved(url: string): Promise<Bookmark | null> {
    const client = await this.account.client();
    try {
      return await this.findSaved(client, url, 'user', 'lookup');
    } catch (err) {
      if ((await this.index.lookup(url)) !== null) throw err;
      return null;
    }
  }

  /**
   * The active bookmark saved under the URL: the index's (one GET), else one
   * request by URL, as the index may be behind (an import, another device). The
   * popup's own check stands for a while, so that its Save costs no second one:
   * a save uses it up; a popup opened again on the page meanwhile shows it by the
   * same check, and leaves it for its own Save.
   */
  private async findSaved(client: ApiClient, url: string, priority: Priority, use: 'lookup' | 'save'): Promise<Bookmark | null> {
    const id = await this.index.lookup(url);
    const known = id === null ? null : await this.getActive(client, id, url, priority);
    if (known) return known;
    const key = normaliseUrl(url);
    const checkedAt = this.checkedUnsaved.get(key);
    if (use === 'save') this.checkedUnsaved.delete(key);
    if (checkedAt !== undefined && Date.now() - checkedAt < UNSAVED_CHECK_MS) return null;
    const { data } = await client.call('listBookmarks', { priority, query: { url, limit: '10' } });
    const found = data.find((b) => b.url === url) ?? data[0] ?? null;
    if (found === null) {
      this.checkedUnsaved.set(key, Date.now());
      return null;
    }
    // Saved, and the index did not know: it is behind, and catches up.
    await this.index.remember(found);
    this.onSavedChange(found.url);
    this.onIndexBehind();
    return found;
  }

  /** The index's bookmark, unless it has gone (trashed or deleted elsewhere): the index then forgets it. */
  private async getActive(client: ApiClient, id: string, url: string, priority: Priority): Promise<Bookmark | null> {
    try {
      const bookmark = await client.call('getBookmark', { params: { id }, priority });
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

/** A save on its way to the server: the page's form, what the user changed in it, and its Idempotency-Key. */
export type OutgoingSave = Pick<QueuedSave, 'owner' | 'body' | 'edits' | 'key'>;
