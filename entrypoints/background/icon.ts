import type { browser } from 'wxt/browser';

type Browser = typeof browser;
import type { SavedIndex } from './saved-index.ts';

/**
 * The toolbar icon tells whether the current tab is saved, from the local index
 * alone: a tab switch costs no request.
 */
export class SavedIcon {
  constructor(
    private browser: Browser,
    private index: SavedIndex,
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
    const saved = url !== undefined && /^https?:/.test(url) && (await this.index.lookup(url)) !== null;
    await Promise.all([
      this.browser.action.setBadgeText({ tabId, text: saved ? '✓' : '' }),
      this.browser.action.setBadgeBackgroundColor({ tabId, color: '#16a34a' }),
      this.browser.action.setTitle({ tabId, title: saved ? 'Shelf: this page is saved' : 'Save to Shelf' }),
    ]).catch(() => undefined); // the tab may have closed meanwhile
  }
}
