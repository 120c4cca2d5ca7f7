import type { browser } from 'wxt/browser';
import type { CreateBookmarkBody } from '../../lib/api/bookmarks.ts';
import { toClientError } from '../../lib/client/errors.ts';
import { describeSaveAll } from '../../lib/client/save-all-text.ts';
import { type SaveAllProgress, saveAllTabsItem } from '../../lib/storage/save-all-items.ts';
import { type TabPage, isWebPage, webPages } from '../../lib/tab-pages.ts';
import type { Bookmarks } from './bookmarks.ts';
import { notify } from './notify.ts';
import type { SavedIndex } from './saved-index.ts';

type Browser = typeof browser;

/**
 * Saves under way at once. The scheduler still decides when each request goes (the popup's own first);
 * a few at a time keep a window of tabs quick while the server fetches each page's details.
 */
const AT_ONCE = 3;
const MENU_SAVE_ALL = 'shelf-save-all-tabs';
/**
 * How long the saves wait for the index to catch up (its requests go in the user's share of the budget, but a
 * sync already under way, or a full pass, is background work, which waits out a rate limit for as long as it
 * lasts); past this the pages go without it, each asking the server itself.
 */
const INDEX_WAIT_MS = 5_000;

export interface SaveAllInput {
  /** The window whose tabs are saved; the current one when not given. */
  windowId?: number;
  collectionId?: CreateBookmarkBody['collectionId'];
  tags?: string[];
}

/**
 * *Save all tabs*: every web page of a window into one collection with the same tags. There is no bulk create
 * in the API, so each page is one save as the popup makes it (through the save queue: one Idempotency-Key, never
 * made twice, queued when the server cannot take it). Pages already saved are left as they are and cost nothing:
 * the saved-page index is brought up to date first (its sync checks the library's size), so a page it lacks
 * needs no look-up of its own and each new page is one request.
 */
export class TabSaver {
  private running: Promise<SaveAllProgress> | null = null;

  constructor(
    private browser: Browser,
    private index: SavedIndex,
    private bookmarks: Bookmarks,
  ) {}

  /** A second request while one runs gets that run's answer: one window's tabs are never saved twice over. */
  saveAll(input: SaveAllInput): Promise<SaveAllProgress> {
    this.running ??= this.run(input).finally(() => (this.running = null));
    return this.running;
  }

  private async run({ windowId, collectionId, tags }: SaveAllInput): Promise<SaveAllProgress> {
    const tabs = await this.browser.tabs.query(windowId === undefined ? { currentWindow: true } : { windowId });
    const pages = webPages(tabs);
    const progress: SaveAllProgress = {
      total: pages.length,
      notWeb: tabs.filter((t) => !isWebPage(t.url)).length,
      saved: 0,
      skipped: 0,
      waiting: 0,
      goesAt: null,
      failed: 0,
      error: null,
      running: pages.length > 0,
    };
    await saveAllTabsItem.set(progress);
    // Offline, the sync fails: each page then asks the server itself (its save waits in the queue if it cannot).
    const indexCurrent = pages.length > 0 && (await this.indexCaughtUp());
    const shared = { ...(collectionId !== undefined && { collectionId }), ...(tags?.length && { tags }) };

    const saveOne = async ({ url, title }: TabPage) => {
      if ((await this.index.lookup(url)) !== null) {
        progress.skipped++;
      } else {
        if (indexCurrent) this.bookmarks.vouchUnsaved(url);
        try {
          const answer = await this.bookmarks.save({ url, ...(title && { title }), ...shared });
          if (!answer.bookmark) {
            progress.waiting++;
            const goesIn = answer.queued?.goesInSeconds;
            if (goesIn !== null && goesIn !== undefined) progress.goesAt = Math.max(progress.goesAt ?? 0, Date.now() + goesIn * 1000);
          }
          else if (answer.existed) progress.skipped++;
          else progress.saved++;
        } catch (err) {
          const { code, message } = toClientError(err);
          progress.failed++;
          progress.error = { code, message };
        }
      }
      await saveAllTabsItem.set(progress);
    };
    const next = pages.values();
    await Promise.all(Array.from({ length: AT_ONCE }, async () => {
      for (const page of next) await saveOne(page);
    }));
    progress.running = false;
    await saveAllTabsItem.set(progress);
    return progress;
  }

  private indexCaughtUp(): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, INDEX_WAIT_MS, false)));
    const synced = this.index.sync({ catchUp: true }).then(() => true, () => false);
    return Promise.race([synced, late]).finally(() => clearTimeout(timer));
  }
}

/** The toolbar button's menu: all the window's tabs to Unsorted (a menu has no room to choose), answered by a notification. */
export function setupSaveAllTabsMenu(browser: Browser, saver: TabSaver): void {
  browser.runtime.onInstalled.addListener(() => {
    browser.contextMenus.create({ id: MENU_SAVE_ALL, title: 'Save all tabs to Shelf', contexts: ['action'] });
  });
  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId !== MENU_SAVE_ALL) return;
    void saver
      .saveAll(tab?.windowId === undefined ? {} : { windowId: tab.windowId })
      .then((progress) => notify(browser, 'Save all tabs', describeSaveAll(progress)))
      .catch((err: unknown) => console.warn('Shelf: saving all tabs failed', err));
  });
}
