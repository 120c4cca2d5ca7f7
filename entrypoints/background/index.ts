import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import * as z from 'zod/mini';
import { hasSiteAccess } from '../../lib/client/host-patterns.ts';
import { RequestScheduler } from '../../lib/client/scheduler.ts';
import { handleMessages } from '../../lib/messaging/receive.ts';
import type { Runtime } from '../../lib/messaging/transport.ts';
import { spentRequestsItem } from '../../lib/storage/background-items.ts';
import { Account } from './account.ts';
import { setupAutoCoverRetry } from './auto-covers.ts';
import { setupCoverMenu } from './cover-menu.ts';
import { setupDuplicatesOpening } from './duplicates-opening.ts';
import { createHandlers } from './handlers.ts';
import { setupIndexSync } from './index-sync.ts';
import { setupLibraryPage } from './library-page.ts';
import { IndexMemory } from './index-memory.ts';
import { Omnibox, setupOmnibox } from './omnibox.ts';
import { setupQuickSave } from './quick-save.ts';
import { setupSaveAllTabsMenu } from './save-all-tabs.ts';
import { setupSaveRetry } from './save-retry.ts';
import { createServices } from './services.ts';
import { setupSidePanel } from './side-panel.ts';

export function startBackground(): void {
  // zod/mini loads no locale (so the popup stays small): a refused message names its problem in English, as the API does.
  z.config(z.locales.en());
  // Nothing but extension pages may read extension storage, the token least of all (Chrome; Firefox has no such setting).
  void browser.storage.local.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' });

  // Created first: every API call of every service waits for its turn here.
  const scheduler = new RequestScheduler({
    store: { load: () => spentRequestsItem.get(), save: (spent) => spentRequestsItem.set(spent) },
    onTokenRefused: (error, credential) => void account.tokenRefused(error, credential),
  });
  const account: Account = new Account({
    scheduler,
    hasHostPermission: (origin) => hasSiteAccess(browser.permissions, origin),
    // Saves that waited for a usable token go as soon as there is one.
    onSignedIn: () => void services.queue.drain(true),
  });
  const services = createServices(account, scheduler, browser);
  const { bookmarks, covers, autoCovers, index, icon, queue, opens } = services;

  const ownPages = { id: browser.runtime.id, root: browser.runtime.getURL('/') };
  handleMessages(browser.runtime as unknown as Runtime, createHandlers(services), ownPages);
  icon.setup();
  setupQuickSave(browser, bookmarks, autoCovers);
  setupAutoCoverRetry(browser, autoCovers);
  setupCoverMenu(browser, covers);
  setupSaveAllTabsMenu(browser, services.tabs);
  setupSidePanel(browser);
  setupLibraryPage(browser);
  setupDuplicatesOpening(browser, services.duplicates);
  const indexMemory = new IndexMemory(browser.storage.local, index.searchText);
  // Chrome reads suggestions' descriptions as XML; Firefox as plain text.
  setupOmnibox(browser, new Omnibox(account, indexMemory, opens, browser.tabs, import.meta.env.BROWSER !== 'firefox'), indexMemory);
  setupIndexSync(browser, account, index, () => icon.refreshAll());
  // Opens recorded before the worker stopped still go.
  void opens.resume();
  setupSaveRetry(browser, queue, typeof globalThis.addEventListener === 'function' ? globalThis : undefined);
}

// A classic worker is built on its own, so the pages' shared chunks hold only what the pages use.
export default defineBackground({ main: startBackground });
