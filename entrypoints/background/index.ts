import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import * as z from 'zod/mini';
import { handleMessages } from '../../lib/messaging/receive.ts';
import type { Runtime } from '../../lib/messaging/transport.ts';
import { Account } from './account.ts';
import { setupCoverMenu } from './cover-menu.ts';
import { createHandlers } from './handlers.ts';
import { setupIndexSync } from './index-sync.ts';
import { setupQuickSave } from './quick-save.ts';
import { createServices } from './services.ts';
import { setupSidePanel } from './side-panel.ts';

export function startBackground(): void {
  // zod/mini loads no locale (so the popup stays small): a refused message names its problem in English, as the API does.
  z.config(z.locales.en());
  // Nothing but extension pages may read extension storage, the token least of all (Chrome; Firefox has no such setting).
  void browser.storage.local.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' });

  const account = new Account({
    hasHostPermission: (origin) => browser.permissions.contains({ origins: [`${origin}/*`] }),
  });
  const services = createServices(account, browser);
  const { bookmarks, covers, index, icon } = services;

  handleMessages(browser.runtime as unknown as Runtime, createHandlers(services));
  icon.setup();
  setupQuickSave(browser, bookmarks);
  setupCoverMenu(browser, covers);
  setupSidePanel(browser);
  setupIndexSync(browser, account, index, () => icon.refreshAll());
}

// A classic worker is built on its own, so the pages' shared chunks hold only what the pages use.
export default defineBackground({ main: startBackground });
