import type { browser } from 'wxt/browser';
import type { RequestScheduler } from '../../lib/client/scheduler.ts';
import type { Account } from './account.ts';
import { AUTO_COVER_ALARM, AutoCovers } from './auto-covers.ts';
import { Bookmarks } from './bookmarks.ts';
import { Browse } from './browse.ts';
import { browserCovers } from './covers.ts';
import { Duplicates } from './duplicates.ts';
import { Find } from './find.ts';
import type { Services } from './handlers.ts';
import { SavedIcon } from './icon.ts';
import { LibraryEdits } from './library-edits.ts';
import { OpenCounts } from './open-counts.ts';
import { Library } from './library.ts';
import { SavedIndex } from './saved-index.ts';
import { indexedDbSearchText } from '../../lib/storage/search-text-store.ts';
import { SaveQueue } from './save-queue.ts';
import { sendQueuedQuickSave } from './quick-save.ts';
import { TabSaver } from './save-all-tabs.ts';
import { OpenAll } from './open-all.ts';
import { SmartFolderDefinitions } from './smart-folder-definitions.ts';
import { SmartFolders } from './smart-folders.ts';
import { Transfer } from './transfer.ts';
import { browserPageCover } from './page-cover.ts';
import type { CardCover } from '../../lib/image/card-cover.ts';
import { hasSiteAccess } from '../../lib/client/host-patterns.ts';
import { LinkStatuses } from './link-statuses.ts';
import { Trash } from './trash.ts';

/**
 * The background's services around one account and the scheduler its calls go
 * through, wired once (the worker and the tests build them alike). Cover images
 * are fetched with `fetchImage`; automatic covers are made from a tab by `coverOfTab` (the page's preview image, else a capture).
 */
export function createServices(
  account: Account,
  scheduler: RequestScheduler,
  browserApi: typeof browser,
  fetchImage?: typeof fetch,
  coverOfTab: (tabId: number) => Promise<CardCover | null> = browserPageCover(browserApi, (origin) => hasSiteAccess(browserApi.permissions, origin)),
): Services {
  const index = new SavedIndex(account, scheduler, indexedDbSearchText());
  const library = new Library(account);
  const queue: SaveQueue = new SaveQueue(account, {
    send: (save) => (save.quick ? sendQueuedQuickSave(browserApi, bookmarks, save) : bookmarks.send(save, 'background')),
    onChange: () => void icon.refreshAll(),
  });
  const icon = new SavedIcon(browserApi, index, queue);
  const refreshIcons = () => void icon.refreshAll();
  const catchUp = (options?: Parameters<SavedIndex['sync']>[0]) =>
    void index.sync(options).then(refreshIcons, (err: unknown) => console.warn('Shelf: saved-page sync failed', err));
  // The index learnt of a bookmark saved elsewhere: it catches up (a full pass when the library's size says so).
  const opens = new OpenCounts(account);
  const bookmarks = new Bookmarks(account, index, library, queue, refreshIcons, () => catchUp());
  return {
    account,
    index,
    library,
    icon,
    queue,
    bookmarks,
    covers: browserCovers(browserApi, account, bookmarks, fetchImage),
    autoCovers: new AutoCovers({ account, coverOfTab, wakeAt: (when) => void browserApi.alarms.create(AUTO_COVER_ALARM, { when }) }),
    browse: new Browse(account, index, library, refreshIcons),
    edits: new LibraryEdits(account, library),
    // The scheduler's one heavy budget for every smart-folder evaluation: the side panel's and the options page's previews.
    smartFolders: new SmartFolders(account, library, scheduler),
    smartFolderDefinitions: new SmartFolderDefinitions(account, library),
    trash: new Trash(account),
    linkStatuses: new LinkStatuses(account),
    transfer: new Transfer(account, (job) => catchUp({ full: true, ...(job.result && { added: job.result.imported }) })),
    duplicates: new Duplicates(account, scheduler),
    opens,
    openAll: new OpenAll(browserApi, account, opens),
    find: new Find(account),
    tabs: new TabSaver(browserApi, index, bookmarks),
  };
}
