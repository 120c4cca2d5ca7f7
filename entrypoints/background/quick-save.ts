import type { browser } from 'wxt/browser';

type Browser = typeof browser;
import type { AutoCovers } from './auto-covers.ts';
import type { Bookmarks } from './bookmarks.ts';
import { describeError } from '../../lib/client/user-text.ts';
import { notify, notifyFailure, notifyUnsaveable } from './notify.ts';

export const SAVE_COMMAND = 'save-page';
const MENU_PAGE = 'shelf-save-page';
const MENU_LINK = 'shelf-save-link';

/**
 * Saving without opening the popup: the keyboard shortcut and the context menu, answered by a notification. Both
 * grant activeTab on the tab they act on, so a new bookmark of that tab's page gets its automatic cover; a saved
 * link is a page no tab shows, and gets none.
 */
export function setupQuickSave(browser: Browser, bookmarks: Bookmarks, autoCovers: AutoCovers): void {
  browser.runtime.onInstalled.addListener(() => {
    browser.contextMenus.create({ id: MENU_PAGE, title: 'Save page to Shelf', contexts: ['page'] });
    browser.contextMenus.create({ id: MENU_LINK, title: 'Save link to Shelf', contexts: ['link'] });
  });

  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === MENU_LINK && info.linkUrl) void quickSave(browser, bookmarks, info.linkUrl, info.selectionText);
    else if (info.menuItemId === MENU_PAGE && tab?.url) void quickSave(browser, bookmarks, tab.url, tab.title, tab.id === undefined ? undefined : { autoCovers, tabId: tab.id });
  });

  browser.commands.onCommand.addListener((command, tab) => {
    if (command !== SAVE_COMMAND) return;
    void (async () => {
      const active = tab ?? (await browser.tabs.query({ active: true, currentWindow: true }))[0];
      if (active?.url) await quickSave(browser, bookmarks, active.url, active.title, active.id === undefined ? undefined : { autoCovers, tabId: active.id });
    })();
  });
}

export async function quickSave(
  browser: Browser,
  bookmarks: Bookmarks,
  url: string,
  title: string | undefined,
  cover?: { autoCovers: AutoCovers; tabId: number },
): Promise<void> {
  if (!/^https?:\/\//.test(url)) {
    await notifyUnsaveable(browser);
    return;
  }
  try {
    const saved = await bookmarks.save({ url, ...(title?.trim() && { title: title.trim() }) });
    if (saved.bookmark) {
      if (cover && saved.existed === false) void cover.autoCovers.afterSave(saved.bookmark, cover.tabId);
      await notify(browser, 'Saved to Shelf', saved.bookmark.title || saved.bookmark.url);
    } else {
      const error = saved.queued?.error;
      const why = error ? describeError({ ...error, retryAfterSeconds: undefined }).title : '';
      await notify(browser, 'Waiting to be saved', `${why} Shelf will save it as soon as the server takes it.`.trim());
    }
  } catch (err) {
    await notifyFailure(browser, 'Not saved', err);
  }
}
