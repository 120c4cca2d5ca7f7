import type { Runtime } from '../../../lib/messaging/transport.ts';

/** The extension page every message of the loopback runtime comes from. */
export const LOOPBACK_PAGE = { id: 'test-extension-id', url: 'chrome-extension://test-extension-id/options.html' };
export const LOOPBACK_EXTENSION = { id: LOOPBACK_PAGE.id, root: 'chrome-extension://test-extension-id/' };

type Listener = Parameters<Runtime['onMessage']['addListener']>[0];

/**
 * The runtime messaging of a real browser, in memory: a listener answers through
 * sendResponse (asynchronously when it returns true) and messages cross as JSON,
 * as they do between extension pages. fakeBrowser's runtime has no sendResponse.
 */
export function createLoopbackRuntime(): Runtime {
  const listeners: Listener[] = [];
  const overTheWire = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
  return {
    onMessage: { addListener: (listener) => void listeners.push(listener) },
    sendMessage: (message) =>
      new Promise((resolve, reject) => {
        if (listeners.length === 0) {
          reject(new Error('Could not establish connection. Receiving end does not exist.'));
          return;
        }
        let answered = false;
        const sendResponse = (reply: unknown) => {
          if (answered) return;
          answered = true;
          resolve(overTheWire(reply));
        };
        const waiting = listeners.map((listener) => listener(overTheWire(message), LOOPBACK_PAGE, sendResponse) === true);
        if (!answered && !waiting.includes(true)) resolve(undefined);
      }),
  };
}
