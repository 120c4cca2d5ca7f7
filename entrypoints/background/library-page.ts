import type { browser } from 'wxt/browser';

type Browser = typeof browser;

/** The library page's address within the extension (entrypoints/library/). */
export const LIBRARY_PAGE = '/library.html';
const MENU_LIBRARY = 'shelf-library-page';

/** "Open library" in the toolbar button's menu: the library page in a new tab. */
export function setupLibraryPage(browser: Browser): void {
  browser.runtime.onInstalled.addListener(() => {
    browser.contextMenus.create({ id: MENU_LIBRARY, title: 'Open library', contexts: ['action'] });
  });
  browser.contextMenus.onClicked.addListener((info) => {
    if (info.menuItemId !== MENU_LIBRARY) return;
    browser.tabs.create({ url: browser.runtime.getURL(LIBRARY_PAGE) }).catch((err: unknown) => console.warn('Shelf: the library page did not open', err));
  });
}
