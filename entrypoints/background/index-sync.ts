import type { browser } from 'wxt/browser';

type Browser = typeof browser;
import type { Account } from './account.ts';
import type { SavedIndex } from './saved-index.ts';

const ALARM = 'shelf-sync-saved-index';
const PERIOD_MINUTES = 60;

/**
 * Keeps the saved-page index in step with saves made elsewhere (other devices,
 * the web app): a full rebuild every hour and when the browser starts.
 */
export function setupIndexSync(browser: Browser, account: Account, index: SavedIndex, afterSync: () => Promise<void>): void {
  const sync = async () => {
    if (!(await account.state()).signedIn) return;
    await index.sync();
    await afterSync();
  };
  void browser.alarms.create(ALARM, { periodInMinutes: PERIOD_MINUTES });
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) void sync().catch((err: unknown) => console.warn('Shelf: saved-page sync failed', err));
  });
  browser.runtime.onStartup.addListener(() => void sync().catch((err: unknown) => console.warn('Shelf: saved-page sync failed', err)));
}
