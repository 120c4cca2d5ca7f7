import type { browser } from 'wxt/browser';

type Browser = typeof browser;
import type { AutoCovers } from './auto-covers.ts';
import type { Bookmarks } from './bookmarks.ts';
import type { CreateBookmarkBody } from '../../lib/api/bookmarks.ts';
import { toClientError } from '../../lib/client/errors.ts';
import { describeError } from '../../lib/client/user-text.ts';
import { lastCollectionItem, quickSaveTargetItem } from '../../lib/storage/items.ts';
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
    const { saved, fellBack } = await saveInto(bookmarks, { url, ...(title?.trim() && { title: title.trim() }) }, await quickSaveCollection());
    if (saved.bookmark) {
      if (cover && saved.existed === false) void cover.autoCovers.afterSave(saved.bookmark, cover.tabId);
      const name = saved.bookmark.title || saved.bookmark.url;
      if (fellBack) await notify(browser, 'Saved to Shelf, in Unsorted', `${name}: the collection chosen for quick saves is no longer in your library. Choose another in Shelf’s options.`);
      else await notify(browser, 'Saved to Shelf', name);
    } else {
      const error = saved.queued?.error;
      const why = error ? describeError({ ...error, retryAfterSeconds: undefined }).title : '';
      await notify(browser, 'Waiting to be saved', `${why} Shelf will save it as soon as the server takes it.`.trim());
    }
  } catch (err) {
    await notifyFailure(browser, 'Not saved', err);
  }
}

/** The collection the options page names for quick saves; null is Unsorted. */
async function quickSaveCollection(): Promise<string | null> {
  const target = await quickSaveTargetItem.get();
  if (target.kind === 'collection') return target.collectionId;
  return target.kind === 'last' ? lastCollectionItem.get() : null;
}

/**
 * A collection deleted or trashed since it was chosen is refused as not found: the page then goes to
 * Unsorted rather than nowhere. Unsorted is the server's default, so no collection is sent for it (and
 * the popup's last collection stays as it was).
 */
async function saveInto(bookmarks: Bookmarks, page: CreateBookmarkBody, collectionId: string | null) {
  if (collectionId === null) return { saved: await bookmarks.save(page), fellBack: false };
  try {
    return { saved: await bookmarks.save({ ...page, collectionId }), fellBack: false };
  } catch (err) {
    if (toClientError(err).code !== 'NOT_FOUND') throw err;
    return { saved: await bookmarks.save(page), fellBack: true };
  }
}
