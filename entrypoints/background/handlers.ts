import type { Handlers } from '../../lib/messaging/protocol.ts';
import { sameAccount } from '../../lib/storage/background-items.ts';
import type { Account } from './account.ts';
import type { AutoCovers } from './auto-covers.ts';
import type { Bookmarks } from './bookmarks.ts';
import type { Browse } from './browse.ts';
import type { Covers } from './covers.ts';
import type { Duplicates } from './duplicates.ts';
import type { Find } from './find.ts';
import type { SavedIcon } from './icon.ts';
import type { LibraryEdits } from './library-edits.ts';
import type { OpenCounts } from './open-counts.ts';
import type { Library } from './library.ts';
import type { SavedIndex } from './saved-index.ts';
import type { SmartFolderDefinitions } from './smart-folder-definitions.ts';
import type { SmartFolders } from './smart-folders.ts';
import type { Transfer } from './transfer.ts';
import type { LinkStatuses } from './link-statuses.ts';
import type { Trash } from './trash.ts';
import type { SaveQueue } from './save-queue.ts';
import type { TabSaver } from './save-all-tabs.ts';
import type { OpenAll } from './open-all.ts';

export interface Services {
  account: Account;
  bookmarks: Bookmarks;
  covers: Covers;
  autoCovers: AutoCovers;
  library: Library;
  edits: LibraryEdits;
  index: SavedIndex;
  icon: SavedIcon;
  browse: Browse;
  smartFolders: SmartFolders;
  smartFolderDefinitions: SmartFolderDefinitions;
  trash: Trash;
  linkStatuses: LinkStatuses;
  transfer: Transfer;
  queue: SaveQueue;
  duplicates: Duplicates;
  opens: OpenCounts;
  openAll: OpenAll;
  find: Find;
  tabs: TabSaver;
}

/** Every message the UI may send, answered by one service call. */
export function createHandlers({ account, bookmarks, covers, autoCovers, library, edits, index, icon, browse, smartFolders, smartFolderDefinitions, trash, linkStatuses, transfer, queue, duplicates, opens, openAll, find, tabs }: Services): Handlers {
  /** What is kept of the signed-in account's library: its saved-page index, lists and kept pages. */
  const forgetLibrary = () => Promise.all([index.clear(), library.clear(), smartFolders.clear(), browse.clear()]);
  return {
    getAccount: () => account.state(),
    signIn: async ({ serverUrl, token, allowInsecure }) => {
      const before = await account.owner();
      const state = await account.signIn(serverUrl, token, { allowInsecure: allowInsecure === true });
      const now = await account.owner();
      // Another account signed in over this one: nothing kept of the first one's library may show for it.
      if (before && !(now && sameAccount(before, now))) await forgetLibrary();
      // The index fills in behind the answer; the popup works meanwhile, the icon catches up when it is done.
      void index
        .sync({ full: true })
        .then(() => icon.refreshAll())
        .catch((err: unknown) => console.warn('Shelf: saved-page sync failed', err));
      return state;
    },
    signOut: async () => {
      const state = await account.signOut();
      // The save queue stays: its saves wait, held for their account, until it signs in again.
      await forgetLibrary();
      await icon.refreshAll();
      return state;
    },
    lookupUrl: ({ url }) => bookmarks.lookup(url),
    saveBookmark: async ({ bookmark, edits, tabId }) => {
      const saved = await bookmarks.save(bookmark, edits);
      // A new bookmark's cover follows the answer, never delaying it.
      if (saved.bookmark && saved.existed === false && tabId !== undefined) void autoCovers.afterSave(saved.bookmark, tabId);
      return saved;
    },
    saveAllTabs: (input) => tabs.saveAll(input),
    updateBookmark: ({ id, patch }) => bookmarks.update(id, patch),
    trashBookmark: ({ id }) => bookmarks.trash(id),
    removeCover: ({ id }) => covers.remove(id),
    listTags: ({ refresh }) => library.tags(refresh),
    listCollections: ({ refresh }) => library.collections(refresh),
    createCollection: async (input) => {
      const collection = await (await account.client()).call('createCollection', { body: input });
      await library.addCollection(collection);
      return collection;
    },

    browseBookmarks: ({ source, sort, cursor }) => browse.page(source, cursor, sort),
    searchBookmarks: ({ q, limit }) => browse.search(q, limit),
    findBookmarks: ({ source }) => find.page(source),
    listDomains: () => find.domains(),
    bookmarkStats: () => find.stats(),
    listSmartFolders: ({ refresh }) => library.smartFolders(refresh),
    smartFolderResults: ({ id }) => smartFolders.view(id),
    evaluateSmartFolder: ({ id, restart }) => smartFolders.evaluate(id, restart),
    bulkBookmarks: ({ action, ids }) => browse.bulk(action, ids),
    restoreBookmark: ({ id }) => browse.restore(id),
    findDuplicates: () => duplicates.find(),
    moreDuplicates: async ({ fetchedAt, from }) => duplicates.more(fetchedAt, from),
    bookmarkOpened: async ({ id }) => {
      await opens.record(id);
      return {};
    },
    openAll: (request) => openAll.open(request),

    updateCollection: ({ id, patch }) => edits.updateCollection(id, patch),
    trashCollection: ({ id }) => edits.trashCollection(id),
    restoreCollection: ({ id }) => edits.restoreCollection(id),
    listTrashedCollections: () => edits.trashedCollections(),
    moveCollectionBookmarks: ({ id, to }) => edits.moveCollectionBookmarks(id, to),
    collectionShare: ({ id }) => edits.share(id),
    setCollectionShare: ({ id, shared }) => edits.setShare(id, shared),
    createTag: (input) => edits.createTag(input),
    renameTag: ({ id, newName }) => edits.renameTag(id, newName),
    deleteTag: ({ id }) => edits.deleteTag(id),
    mergeTags: ({ sourceTagId, targetTagId }) => edits.mergeTags(sourceTagId, targetTagId),

    listTrash: ({ cursor }) => trash.page(cursor),
    deleteBookmark: ({ id }) => trash.deleteForever(id),
    emptyTrash: () => trash.empty(),

    linkStatusCounts: () => linkStatuses.counts(),
    bookmarksByLinkStatus: ({ linkStatus, cursor }) => linkStatuses.page(linkStatus, cursor),

    createSmartFolder: (body) => smartFolderDefinitions.create(body),
    updateSmartFolder: ({ id, patch }) => smartFolderDefinitions.update(id, patch),
    deleteSmartFolder: ({ id }) => smartFolderDefinitions.remove(id),

    startExport: ({ format }) => transfer.startExport(format),
    getJob: ({ id }) => transfer.job(id),
    downloadExport: ({ id }) => transfer.download(id),
    startImport: ({ text }) => transfer.startImport(text),

    heldSaves: () => queue.held(),
    discardHeldSaves: async (owner) => {
      await queue.discardHeld(owner);
      return queue.held();
    },
  };
}
