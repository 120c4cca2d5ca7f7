import type { browser } from 'wxt/browser';
import type { SaveQueue } from './save-queue.ts';

type Browser = typeof browser;

const ALARM = 'shelf-save-queue';

/**
 * When the queue is tried again: everything at every start of the service
 * worker (it may have stopped, or the browser closed, with saves waiting: one
 * request tells whether the server is back), on an alarm every half minute (it
 * wakes a stopped worker; each save keeps its own backoff), and everything at
 * once when the browser comes back online.
 */
export function setupSaveRetry(browser: Browser, queue: SaveQueue, online: Pick<EventTarget, 'addEventListener'> | undefined): void {
  const drain = (all: boolean) => void queue.drain(all).catch((err: unknown) => console.warn('Shelf: the save queue could not be sent', err));
  void browser.alarms.create(ALARM, { periodInMinutes: 0.5 });
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) drain(false);
  });
  online?.addEventListener('online', () => drain(true));
  drain(true);
}
