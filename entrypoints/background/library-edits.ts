import { MAX_BULK } from '../../lib/api/bulk.ts';
import type * as z from 'zod/mini';
import type { PatchCollectionBody, ShareState as ShareStateSchema } from '../../lib/api/collection-edits.ts';
import type { Collection } from '../../lib/api/collections.ts';
import type { Tag } from '../../lib/api/tags.ts';
import type { Account } from './account.ts';
import type { Library } from './library.ts';

type ShareState = z.infer<typeof ShareStateSchema>;

/** The most bookmarks a page of GET /collections/:id/bookmarks holds. */
const PAGE = 100;

/**
 * The options page's changes to collections and tags. After each, the kept
 * list is fetched again, so that the popup's pickers and the side panel show
 * the change at once.
 */
export class LibraryEdits {
  constructor(
    private account: Account,
    private library: Library,
  ) {}

  updateCollection(id: string, patch: PatchCollectionBody): Promise<Collection> {
    return this.collectionChange((client) => client.call('updateCollection', { params: { id }, body: patch }));
  }

  trashCollection(id: string) {
    return this.collectionChange((client) => client.call('trashCollection', { params: { id } }));
  }

  restoreCollection(id: string) {
    return this.collectionChange((client) => client.call('restoreCollection', { params: { id } }));
  }

  async trashedCollections(): Promise<Collection[]> {
    return (await this.account.client()).call('trashedCollections');
  }

  /**
   * Every active bookmark of `id` to `to`, in bulk requests of 50. The first
   * page is asked for each time: the moved bookmarks have left it.
   */
  async moveCollectionBookmarks(id: string, to: string | null): Promise<{ moved: number }> {
    const client = await this.account.client();
    let moved = 0;
    for (;;) {
      const page = await client.call('collectionBookmarks', { params: { id }, query: { limit: String(PAGE) } });
      if (page.bookmarks.length === 0) break;
      const ids = page.bookmarks.map((b) => b.id);
      for (let i = 0; i < ids.length; i += MAX_BULK) {
        moved += (await client.call('bulkMove', { body: { ids: ids.slice(i, i + MAX_BULK), collectionId: to } })).changed;
      }
    }
    await this.refreshCollections();
    return { moved };
  }

  async share(id: string): Promise<ShareState> {
    return this.absolute(await (await this.account.client()).call('getShare', { params: { id } }));
  }

  async setShare(id: string, shared: boolean): Promise<ShareState> {
    const state = await this.collectionChange((client) => client.call('setShare', { params: { id }, body: { shared } }));
    return this.absolute(state);
  }

  createTag(input: { name: string; color?: string | undefined }): Promise<Tag> {
    return this.tagChange((client) => client.call('createTag', { body: input }));
  }

  renameTag(id: string, newName: string): Promise<Tag> {
    return this.tagChange((client) => client.call('renameTag', { params: { id }, body: { newName } }));
  }

  deleteTag(id: string) {
    return this.tagChange((client) => client.call('deleteTag', { params: { id } }));
  }

  mergeTags(sourceTagId: string, targetTagId: string) {
    return this.tagChange((client) => client.call('mergeTags', { body: { sourceTagId, targetTagId } }));
  }

  private async collectionChange<T>(change: (client: Awaited<ReturnType<Account['client']>>) => Promise<T>): Promise<T> {
    const result = await change(await this.account.client());
    await this.refreshCollections();
    return result;
  }

  private async tagChange<T>(change: (client: Awaited<ReturnType<Account['client']>>) => Promise<T>): Promise<T> {
    const result = await change(await this.account.client());
    // The change is made: a failed refresh only leaves the kept list stale, for its next read to fetch.
    await this.library.tags(true).catch(() => this.library.markTagsStale());
    return result;
  }

  private async refreshCollections(): Promise<void> {
    await this.library.collections(true).catch(() => this.library.markCollectionsStale());
  }

  /** The API answers the public page's path (/shared/<slug>), which lives on the server's origin, outside /v1. */
  private async absolute(state: ShareState): Promise<ShareState> {
    const { serverUrl } = await this.account.state();
    return { ...state, publicUrl: new URL(state.publicUrl, serverUrl).href };
  }
}
