import type { browser } from 'wxt/browser';
import { toClientError } from '../../lib/client/errors.ts';
import { describeError } from '../../lib/client/user-text.ts';

type Browser = typeof browser;

/** The answer to an action taken without a page (shortcut, context menu): a system notification. */
export async function notify(browser: Browser, title: string, message: string): Promise<void> {
  await browser.notifications.create({ type: 'basic', iconUrl: browser.runtime.getURL('/icon/128.png'), title, message });
}

/** A failure in describeError's words: "<what>: <what happened>", then what to do. */
export function notifyFailure(browser: Browser, what: string, err: unknown): Promise<void> {
  const text = describeError(toClientError(err));
  return notify(browser, `${what}: ${text.title}`, text.action);
}

/** Shelf keeps web pages only: said the same way wherever a page is saved without the popup. */
export const notifyUnsaveable = (browser: Browser): Promise<void> =>
  notify(browser, 'Shelf can only save web pages', 'This page’s address does not start with http or https.');
