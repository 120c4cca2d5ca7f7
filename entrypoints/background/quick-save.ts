import type { browser } from 'wxt/browser';

type Browser = typeof browser;
import type { AutoCovers } from './auto-covers.ts';
import type { Bookmarks, OutgoingSave } from './bookmarks.ts';
import type { Bookmark, CreateBookmarkBody } from '../../lib/api/bookmarks.ts';
import { NO_EDITS } from '../../lib/save-edits.ts';
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
    const page = { url, ...(title?.trim() && { title: title.trim() }) };
    const collectionId = await quickSaveCollection();
    const { saved, fellBack } = await intoChosenOrUnsorted({ ...page, ...(collectionId !== null && { collectionId }) }, (body) => bookmarks.save(body, NO_EDITS, { quick: true }));
    if (saved.bookmark) {
      if (cover && saved.existed === false) void cover.autoCovers.afterSave(saved.bookmark, cover.tabId);
      await notifySaved(browser, saved.bookmark, fellBack);
    } else {
      const error = saved.queued?.error;
      const why = error ? describeError({ ...error, retryAfterSeconds: undefined }).title : '';
      await notify(browser, 'Waiting to be saved', `${why} Shelf will save it as soon as the server takes it.`.trim());
    }
  } catch (err) {
    await notifyFailure(browser, 'Not saved', err);
  }
}

/**
 * A quick save that waited in the queue, as it goes: into its collection, or into Unsorted when that collection
 * is gone by then, which the notification says as the direct path's does (it goes under a new key: the refused
 * request made nothing).
 */
export async function sendQueuedQuickSave(browser: Browser, bookmarks: Bookmarks, save: OutgoingSave): Promise<void> {
  const { saved, fellBack } = await intoChosenOrUnsorted(save.body, (body) =>
    bookmarks.send(body === save.body ? save : { ...save, body, key: crypto.randomUUID() }, 'background'),
  );
  if (fellBack) await notifySaved(browser, saved.bookmark, true);
}

function notifySaved(browser: Browser, bookmark: Bookmark, fellBack: boolean): Promise<void> {
  const name = bookmark.title || bookmark.url;
  if (fellBack) return notify(browser, 'Saved to Shelf, in Unsorted', `${name}: the collection chosen for quick saves is no longer in your library. Choose another in Shelf’s options.`);
  return notify(browser, 'Saved to Shelf', name);
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
async function intoChosenOrUnsorted<T>(page: CreateBookmarkBody, send: (body: CreateBookmarkBody) => Promise<T>): Promise<{ saved: T; fellBack: boolean }> {
  try {
    return { saved: await send(page), fellBack: false };
  } catch (err) {
    if (page.collectionId == null || toClientError(err).code !== 'NOT_FOUND') throw err;
    const { collectionId: _gone, ...unsorted } = page;
    return { saved: await send(unsorted), fellBack: true };
  }
}
