import type { browser } from 'wxt/browser';
import { DUPLICATES_SECTION } from '../../lib/options-sections.ts';
import type { Duplicates } from './duplicates.ts';

type Browser = typeof browser;

/** The options page opened on its Duplicates view. */
export const DUPLICATES_VIEW = `/options.html#${DUPLICATES_SECTION}`;

/** An address without its fragment: what tells one document from another. */
const documentOf = (url: string): string => url.replace(/#.*/s, '');

/**
 * A tab that starts to load the Duplicates view has its search sent at once, while the browser makes the page,
 * for the page's early script to take (Duplicates.startForOpening). Only a new document: Chromium reports a switch
 * of section inside an open options page as a load too (status `loading`, the new address), and that page may hold
 * its groups already, so each tab's last document is followed from its creation on. A tab the background did not
 * see from its creation (it was stopped, and the tab's navigation started it) gets no early search: its page asks.
 */
export function setupDuplicatesOpening(browser: Browser, duplicates: Pick<Duplicates, 'startForOpening'>): void {
  const view = browser.runtime.getURL(DUPLICATES_VIEW);
  /** Each tab's document since its creation; null: none yet (a new tab). */
  const documents = new Map<number, string | null>();
  browser.tabs.onCreated.addListener((tab) => {
    if (tab.id !== undefined) documents.set(tab.id, null);
  });
  browser.tabs.onRemoved.addListener((tabId) => documents.delete(tabId));
  browser.tabs.onUpdated.addListener((tabId, change, tab) => {
    const shown = documents.get(tabId);
    if (change.url !== undefined && shown !== undefined) documents.set(tabId, documentOf(change.url));
    if (change.status !== 'loading' || shown === undefined) return;
    // A reload reports no address: it makes a new document of the one shown.
    const newDocument = change.url === undefined || shown === null || shown !== documentOf(change.url);
    if (newDocument && (change.url ?? tab.url) === view) duplicates.startForOpening();
  });
}
