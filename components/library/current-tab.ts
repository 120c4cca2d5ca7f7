import { useEffect, useState } from 'react';
import { browser } from 'wxt/browser';

export interface CurrentTab {
  id: number;
  url: string;
  title: string;
}

async function activeTab(): Promise<CurrentTab | null> {
  const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
  return tab?.id !== undefined && tab.url ? { id: tab.id, url: tab.url, title: tab.title ?? '' } : null;
}

/** The tab the panel sits beside, followed as the user switches tabs or navigates. */
export function useCurrentTab(): CurrentTab | null {
  const [tab, setTab] = useState<CurrentTab | null>(null);
  useEffect(() => {
    const follow = () => void activeTab().then(setTab);
    const onUpdated = (_id: number, change: { url?: string; title?: string }) => (change.url || change.title) && follow();
    follow();
    browser.tabs.onActivated.addListener(follow);
    browser.tabs.onUpdated.addListener(onUpdated);
    browser.windows.onFocusChanged.addListener(follow);
    return () => {
      browser.tabs.onActivated.removeListener(follow);
      browser.tabs.onUpdated.removeListener(onUpdated);
      browser.windows.onFocusChanged.removeListener(follow);
    };
  }, []);
  return tab;
}

/** Opens a bookmark as browsers open links: in the current tab, or a new background tab. */
export async function openUrl(url: string, current: CurrentTab | null, inNewTab: boolean): Promise<void> {
  if (inNewTab || current === null) await browser.tabs.create({ url, active: false });
  else await browser.tabs.update(current.id, { url });
}
