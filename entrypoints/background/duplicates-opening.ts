import type { browser } from 'wxt/browser';
import type { Duplicates } from './duplicates.ts';

type Browser = typeof browser;

/** The options page opened on its Duplicates view (entrypoints/options/App.tsx names sections by the address's hash). */
export const DUPLICATES_VIEW = '/options.html#duplicates';

/**
 * A tab that starts to load the Duplicates view has its search sent at once, while the browser makes the page,
 * for the page's early script to take (Duplicates.startForOpening). Only a load: a switch to the view inside a
 * page already open changes the address without one, and that page may hold its groups already.
 */
export function setupDuplicatesOpening(browser: Browser, duplicates: Pick<Duplicates, 'startForOpening'>): void {
  const view = browser.runtime.getURL(DUPLICATES_VIEW);
  browser.tabs.onUpdated.addListener((_tabId, change) => {
    if (change.status === 'loading' && change.url === view) duplicates.startForOpening();
  });
}
