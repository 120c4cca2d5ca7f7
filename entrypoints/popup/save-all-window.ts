import { browser } from 'wxt/browser';
import { type SaveAllProgress, saveAllTabsItem } from '../../lib/storage/save-all-items.ts';
import { isWebPage, webPages } from '../../lib/tab-pages.ts';
import { findTab } from './startup.ts';

/** The window *Save all tabs* works on, counted as the background will save it. */
export interface WindowPages {
  windowId: number;
  /** Its web pages, each once. */
  pages: number;
  /** Its tabs that hold no web page (browser and local pages). */
  notWeb: number;
}

/** The window of the popup's tab (findTab's). */
export async function windowPages(tabId: number | undefined): Promise<WindowPages> {
  const windowId = (await findTab(tabId))?.windowId;
  if (windowId === undefined) throw new Error('Shelf popup: the browser named no window for the tab');
  const tabs = await browser.tabs.query({ windowId });
  return { windowId, pages: webPages(tabs).length, notWeb: tabs.filter((t) => !isWebPage(t.url)).length };
}

/**
 * Calls `show` with each progress the background writes (after every page) until the returned function stops it.
 * Storage tells its changes in order, and the last write is the end: a line that follows them ends there.
 */
export function followSaveAll(show: (progress: SaveAllProgress) => void): () => void {
  const [area, name] = saveAllTabsItem.key.split(':') as ['local', string];
  const onChanged = (changes: Record<string, { newValue?: unknown }>, changedArea: string) => {
    const change = changes[name];
    const next = changedArea === area && change ? saveAllTabsItem.from(change.newValue) : null;
    if (next) show(next);
  };
  browser.storage.onChanged.addListener(onChanged);
  return () => browser.storage.onChanged.removeListener(onChanged);
}
