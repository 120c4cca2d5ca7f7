import type { browser } from 'wxt/browser';
import type { Account } from './account.ts';
import { Bookmarks } from './bookmarks.ts';
import { Browse } from './browse.ts';
import type { Services } from './handlers.ts';
import { HeavyBudget } from './heavy-budget.ts';
import { SavedIcon } from './icon.ts';
import { Library } from './library.ts';
import { SavedIndex } from './saved-index.ts';
import { SmartFolderDefinitions } from './smart-folder-definitions.ts';
import { SmartFolders } from './smart-folders.ts';
import { Transfer } from './transfer.ts';
import { Trash } from './trash.ts';

/** The background's services around one account, wired once (the worker and the tests build them alike). */
export function createServices(account: Account, browserApi: typeof browser): Services {
  const index = new SavedIndex(account);
  const library = new Library(account);
  const icon = new SavedIcon(browserApi, index);
  const refreshIcons = () => void icon.refreshAll();
  return {
    account,
    index,
    library,
    icon,
    bookmarks: new Bookmarks(account, index, library, refreshIcons),
    browse: new Browse(account, index, library, refreshIcons),
    // One budget for every smart-folder evaluation: the side panel's and the options page's previews.
    smartFolders: new SmartFolders(account, library, new HeavyBudget()),
    smartFolderDefinitions: new SmartFolderDefinitions(account, library),
    trash: new Trash(account),
    transfer: new Transfer(account),
  };
}
