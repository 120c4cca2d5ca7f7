import type { browser } from 'wxt/browser';
import type { Account } from './account.ts';
import { Bookmarks } from './bookmarks.ts';
import { Browse } from './browse.ts';
import type { Services } from './handlers.ts';
import { HeavyBudget } from './heavy-budget.ts';
import { SavedIcon } from './icon.ts';
import { LibraryEdits } from './library-edits.ts';
import { Library } from './library.ts';
import { SavedIndex } from './saved-index.ts';
import { SmartFolders } from './smart-folders.ts';

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
    edits: new LibraryEdits(account, library),
    smartFolders: new SmartFolders(account, library, new HeavyBudget()),
  };
}
