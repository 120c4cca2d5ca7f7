import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import * as z from 'zod/mini';
import { RequestScheduler } from '../../lib/client/scheduler.ts';
import { handleMessages } from '../../lib/messaging/receive.ts';
import { requestDayItem } from '../../lib/storage/background-items.ts';
import type { Runtime } from '../../lib/messaging/transport.ts';
import { Account } from './account.ts';
import { Bookmarks } from './bookmarks.ts';
import { createHandlers } from './handlers.ts';
import { SavedIcon } from './icon.ts';
import { setupIndexSync } from './index-sync.ts';
import { Library } from './library.ts';
import { setupQuickSave } from './quick-save.ts';
import { SavedIndex } from './saved-index.ts';
import { SaveQueue } from './save-queue.ts';
import { setupSaveRetry } from './save-retry.ts';

export function startBackground(): void {
  // zod/mini loads no locale (so the popup stays small): a refused message names its problem in English, as the API does.
  z.config(z.locales.en());
  // Nothing but extension pages may read extension storage, the token least of all (Chrome; Firefox has no such setting).
  void browser.storage.local.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' });

  // Created first: every API call of every service waits for its turn here.
  const scheduler = new RequestScheduler({
    dayStore: { load: () => requestDayItem.get(), save: (day) => requestDayItem.set(day) },
    onTokenRefused: (error, credential) => void account.tokenRefused(error, credential),
  });
  const account = new Account({
    scheduler,
    hasHostPermission: (origin) => browser.permissions.contains({ origins: [`${origin}/*`] }),
    // Saves that waited for a usable token go as soon as there is one.
    onSignedIn: () => void queue.drain(true),
  });
  const index = new SavedIndex(account);
  const library = new Library(account);
  const queue: SaveQueue = new SaveQueue(account, {
    onSaved: (bookmark, body) => bookmarks.saved(bookmark, body),
    onChange: () => void icon.refreshAll(),
  });
  const icon = new SavedIcon(browser, index, queue);
  const bookmarks = new Bookmarks(account, index, library, queue, () => void icon.refreshAll());

  const ownPages = { id: browser.runtime.id, root: browser.runtime.getURL('/') };
  handleMessages(browser.runtime as unknown as Runtime, createHandlers({ account, bookmarks, library, index, icon, queue }), ownPages);
  icon.setup();
  setupQuickSave(browser, bookmarks);
  setupIndexSync(browser, account, index, () => icon.refreshAll());
  setupSaveRetry(browser, queue, typeof globalThis.addEventListener === 'function' ? globalThis : undefined);
}

// A classic worker is built on its own, so the pages' shared chunks hold only what the pages use.
export default defineBackground({ main: startBackground });
