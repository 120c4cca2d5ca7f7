import type { browser } from 'wxt/browser';

type Browser = typeof browser;

export const SIDE_PANEL_COMMAND = 'open-side-panel';
const MENU_ACTION = 'shelf-side-panel-action';
const MENU_PAGE = 'shelf-side-panel-page';

/** Firefox's sidebar (WXT builds the side panel as `sidebar_action` there); not in Chrome's typings. */
interface SidebarAction {
  open(): Promise<void>;
}

/**
 * Opens the side panel from the toolbar button's menu, the page's context menu
 * and a keyboard shortcut. Each opens it within the user's gesture, as both
 * browsers require: no await comes before the open call.
 */
export function setupSidePanel(browser: Browser): void {
  browser.runtime.onInstalled.addListener(() => {
    browser.contextMenus.create({ id: MENU_ACTION, title: 'Open Shelf side panel', contexts: ['action'] });
    browser.contextMenus.create({ id: MENU_PAGE, title: 'Browse Shelf in the side panel', contexts: ['page'] });
  });

  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === MENU_ACTION || info.menuItemId === MENU_PAGE) open(browser, tab?.windowId);
  });

  browser.commands.onCommand.addListener((command, tab) => {
    if (command === SIDE_PANEL_COMMAND) open(browser, tab?.windowId);
  });
}

function open(browser: Browser, windowId: number | undefined): void {
  const sidebar = (browser as unknown as { sidebarAction?: SidebarAction }).sidebarAction;
  const opening = sidebar ? sidebar.open() : browser.sidePanel.open({ windowId: windowId ?? browser.windows.WINDOW_ID_CURRENT });
  void opening.catch((err: unknown) => console.warn('Shelf: the side panel did not open', err));
}
