import type { browser } from 'wxt/browser';

type Browser = typeof browser;
import type { SavedIndex } from './saved-index.ts';
import type { SaveQueue } from './save-queue.ts';

/**
 * The toolbar icon tells whether the current tab is saved, from the local index
 * alone (a tab switch costs no request), and how many saves wait in the queue.
 */
export class SavedIcon {
  constructor(
    private browser: Browser,
    private index: SavedIndex,
    private queue: SaveQueue,
  ) {}

  setup(): void {
    this.browser.tabs.onActivated.addListener(({ tabId }) => void this.refreshTab(tabId));
    this.browser.tabs.onUpdated.addListener((tabId, change, tab) => {
      if (change.url !== undefined || change.status === 'complete') void this.show(tabId, tab.url);
    });
  }

  async refreshTab(tabId: number): Promise<void> {
    const tab = await this.browser.tabs.get(tabId).catch(() => undefined);
    if (tab) await this.show(tabId, tab.url);
  }

  /** Every open tab showing this URL (or all tabs when no URL is given) gets its icon state again. */
  async refreshAll(): Promise<void> {
    const tabs = await this.browser.tabs.query({});
    await Promise.all(tabs.map((tab) => (tab.id === undefined ? undefined : this.show(tab.id, tab.url))));
  }

  async show(tabId: number, url: string | undefined): Promise<void> {
    const [saved, saves, held] = await Promise.all([
      url !== undefined && /^https?:/.test(url) && this.index.lookup(url).then((id) => id !== null),
      this.queue.list(),
      this.queue.held(),
    ]);
    const waiting = saves.filter((s) => !s.refused).length;
    const refused = saves.length - waiting;
    // What waits outranks this tab's ✓: a save not yet made is what the user must not miss.
    const badge = waiting > 0 ? { text: String(waiting), color: '#d97706' } : refused > 0 ? { text: '!', color: '#dc2626' } : { text: saved ? '✓' : '', color: '#16a34a' };
    const title = [
      saved ? 'Shelf: this page is saved' : 'Save to Shelf',
      ...(waiting > 0 ? [`${waiting} waiting to be saved`] : []),
      ...(refused > 0 ? [`${refused} not saved (open Shelf to see why)`] : []),
      // Another account's saves go only with its own token: the badge counts the signed-in account's.
      ...held.map(({ owner, count }) => `${count} waiting for ${owner.email} (sign in as that account to send them)`),
    ].join('\n');
    await Promise.all([
      this.browser.action.setBadgeText({ tabId, text: badge.text }),
      this.browser.action.setBadgeBackgroundColor({ tabId, color: badge.color }),
      this.browser.action.setTitle({ tabId, title }),
    ]).catch(() => undefined); // the tab may have closed meanwhile
  }
}
