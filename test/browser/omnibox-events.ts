import type { Browser } from 'wxt/browser';
import type { SuggestCall } from '../scenarios/user.ts';
import type { Worker } from 'playwright-core';
import type { Dispatchable, ExtensionBrowser } from './support.ts';

// The extension API inside functions that run in the worker: not a global of this Node process.
declare const chrome: typeof Browser;

export type { SuggestCall };

/**
 * Types `text` after the `sh` keyword as Chromium reports it: onInputStarted,
 * then onInputChanged with the text so far at each keystroke, fired in the
 * worker (headless Chromium has no address bar to type in), so the real
 * listeners run. Answers the suggest calls for the whole text within `waitMs`
 * after the last keystroke.
 */
export async function typeInOmnibox(browser: ExtensionBrowser, text: string, waitMs: number): Promise<SuggestCall[]> {
  return (await runningWorker(browser)).evaluate(
    async ([typed, wait]) => {
      const calls: SuggestCall[] = [];
      (chrome.omnibox.onInputStarted as unknown as Dispatchable).dispatch();
      let last = 0;
      for (let end = 1; end <= typed.length; end++) {
        const sofar = typed.slice(0, end);
        last = performance.now();
        const keystroke = last;
        (chrome.omnibox.onInputChanged as unknown as Dispatchable).dispatch(sofar, (suggestions: SuggestCall['suggestions']) => {
          if (sofar === typed) calls.push({ at: performance.now() - keystroke, suggestions });
        });
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      return calls;
    },
    [text, waitMs] as const,
  );
}

/**
 * The extension's worker, started where Chromium stopped it: typing the keyword starts it in a real address bar, and
 * events cannot be fired in a stopped worker, so CDP's ServiceWorker.startWorker starts it instead, alone, as the
 * keyword does (an extension page's load would start it too, but its start-up messages would then share the worker's
 * thread with the first keystrokes).
 */
async function runningWorker(browser: ExtensionBrowser): Promise<Worker> {
  const listed = await browser.worker();
  // A stopped worker stays listed a while, and an evaluation there waits until something starts it again.
  const answers = await Promise.race([listed.evaluate(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 2_000))]).catch(() => false);
  if (answers) return listed;
  const page = await browser.context.newPage();
  try {
    const session = await browser.context.newCDPSession(page);
    await session.send('ServiceWorker.enable');
    await session.send('ServiceWorker.startWorker', { scopeURL: browser.url('') });
  } finally {
    await page.close();
  }
  return browser.worker();
}

/** Enter in the address bar on `content` (a suggestion's, or the typed words), opened as Chromium's `disposition` says. */
export async function enterInOmnibox(browser: ExtensionBrowser, content: string, disposition: 'currentTab' | 'newForegroundTab' | 'newBackgroundTab'): Promise<void> {
  await (await browser.worker()).evaluate(
    ([text, how]) => (chrome.omnibox.onInputEntered as unknown as Dispatchable).dispatch(text, how),
    [content, disposition] as const,
  );
}
