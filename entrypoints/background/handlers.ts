import type { Handlers } from '../../lib/messaging/protocol.ts';
import type { Account } from './account.ts';
import type { Bookmarks } from './bookmarks.ts';
import type { SavedIcon } from './icon.ts';
import type { Library } from './library.ts';
import type { SavedIndex } from './saved-index.ts';
import type { SaveQueue } from './save-queue.ts';

export interface Services {
  account: Account;
  bookmarks: Bookmarks;
  library: Library;
  index: SavedIndex;
  icon: SavedIcon;
  queue: SaveQueue;
}

/** Every message the UI may send, answered by one service call. */
export function createHandlers({ account, bookmarks, library, index, icon }: Services): Handlers {
  return {
    getAccount: () => account.state(),
    signIn: async ({ serverUrl, token, allowInsecure }) => {
      const state = await account.signIn(serverUrl, token, { allowInsecure: allowInsecure === true });
      // The index fills in behind the answer; the popup works meanwhile, the icon catches up when it is done.
      void index
        .sync({ full: true })
        .then(() => icon.refreshAll())
        .catch((err: unknown) => console.warn('Shelf: saved-page sync failed', err));
      return state;
    },
    signOut: async () => {
      const state = await account.signOut();
      await Promise.all([index.clear(), library.clear()]);
      await icon.refreshAll();
      return state;
    },
    lookupUrl: ({ url }) => bookmarks.lookup(url),
    saveBookmark: ({ bookmark }) => bookmarks.save(bookmark),
    updateBookmark: ({ id, patch }) => bookmarks.update(id, patch),
    trashBookmark: ({ id }) => bookmarks.trash(id),
    listTags: ({ refresh }) => library.tags(refresh),
    listCollections: ({ refresh }) => library.collections(refresh),
    createCollection: async (input) => {
      const collection = await (await account.client()).call('createCollection', { body: input });
      await library.addCollection(collection);
      return collection;
    },
  };
}
