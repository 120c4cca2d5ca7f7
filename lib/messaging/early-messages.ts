import { browser } from 'wxt/browser';
import type { MessageInput, MessageName } from './protocol.ts';

/**
 * Messages a page's early script (options-early.js) sends while the page's own JavaScript is still loading,
 * for the page to take when it asks: a heavy request (the duplicate groups) is then under way before React's
 * first render instead of after it. The reply is handed over raw (an early script loads no schemas); the page
 * checks it as it checks a reply of its own (components/messenger.ts).
 */

// One page, two bundles: the classic early script and the page's module.
const HOLDER = Symbol.for('shelf.earlyMessages');
type HolderWindow = Window & { [HOLDER]?: Map<MessageName, Promise<unknown>> };

/** Run by an early script: sends `name` now and keeps its raw reply for the page. */
export function sendEarly<N extends MessageName>(win: Window, name: N, input: MessageInput<N>): void {
  const reply = browser.runtime.sendMessage({ name, input });
  // Nobody may take it (the page failed to load): its failure is the page's to report, not an unhandled rejection.
  reply.catch(() => undefined);
  ((win as HolderWindow)[HOLDER] ??= new Map()).set(name, reply);
}

/** The early script's raw reply to `name`, taken once (a later ask is sent afresh); undefined when none was sent. */
export function takeEarly(win: Window, name: MessageName): Promise<unknown> | undefined {
  const sent = (win as HolderWindow)[HOLDER];
  const reply = sent?.get(name);
  sent?.delete(name);
  return reply;
}
