import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import * as z from 'zod/mini';
import { handleMessages } from '../../lib/messaging/receive.ts';
import type { Runtime } from '../../lib/messaging/transport.ts';
import { Account } from './account.ts';
import { Bookmarks } from './bookmarks.ts';
import { setupCoverMenu } from './cover-menu.ts';
import { browserCovers } from './covers.ts';
import { createHandlers } from './handlers.ts';
import { SavedIcon } from './icon.ts';
import { setupIndexSync } from './index-sync.ts';
import { Library } from './library.ts';
import { setupQuickSave } from './quick-save.ts';
import { SavedIndex } from './saved-index.ts';

export function startBackground(): void {
  // zod/mini loads no locale (so the popup stays small): a refused message names its problem in English, as the API does.
  z.config(z.locales.en());
  // Nothing but extension pages may read extension storage, the token least of all (Chrome; Firefox has no such setting).
  void browser.storage.local.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' });

  const account = new Account({
    hasHostPermission: (origin) => browser.permissions.contains({ origins: [`${origin}/*`] }),
  });
  const index = new SavedIndex(account);
  const library = new Library(account);
  const icon = new SavedIcon(browser, index);
  const bookmarks = new Bookmarks(account, index, library, () => void icon.refreshAll());

  const covers = browserCovers(browser, account, bookmarks);

  handleMessages(browser.runtime as unknown as Runtime, createHandlers({ account, bookmarks, covers, library, index, icon }));
  icon.setup();
  setupQuickSave(browser, bookmarks);
  setupCoverMenu(browser, covers);
  setupIndexSync(browser, account, index, () => icon.refreshAll());
}

// A classic worker is built on its own, so the pages' shared chunks hold only what the pages use.
export default defineBackground({ main: startBackground });
