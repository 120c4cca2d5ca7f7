import type { browser } from 'wxt/browser';

type Browser = typeof browser;
import type { Account } from './account.ts';
import type { SavedIndex } from './saved-index.ts';

const ALARM = 'shelf-sync-saved-index';
const PERIOD_MINUTES = 60;

/**
 * Keeps the saved-page index in step with saves made elsewhere (other devices,
 * the web app): a full rebuild every hour and when the browser starts; and at
 * every start of the background, a full pass the last one's stop cut short goes
 * on (an alarm, the save queue's every half minute, wakes a stopped background).
 */
export function setupIndexSync(browser: Browser, account: Account, index: SavedIndex, afterSync: () => Promise<void>): void {
  const sync = (resume = false) =>
    void (async () => {
      if (!(await account.state()).signedIn) return;
      if ((resume ? await index.resume() : await index.sync()) !== null) await afterSync();
    })().catch((err: unknown) => console.warn('Shelf: saved-page sync failed', err));
  void browser.alarms.create(ALARM, { periodInMinutes: PERIOD_MINUTES });
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) sync();
  });
  browser.runtime.onStartup.addListener(() => sync());
  sync(true);
}
