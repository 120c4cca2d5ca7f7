import type { Browser } from 'puppeteer-core';
import type { SuggestCall } from '../scenarios/user.ts';
import { inBrowserChrome } from './browser-chrome.ts';

/**
 * The address bar's keyword by Firefox's own path: its address bar hands `<keyword> <text>` to
 * ExtensionSearchHandler at each keystroke (which fires omnibox.onInputStarted, then onInputChanged with a suggest
 * callback, in the event page) and, on Enter, the text and where to open it. Run in the browser window's privileged
 * scope, as the address bar runs it: headless Firefox shows no address bar to type in.
 */

/** The module, and the extension's keyword as its manifest declares it. */
const handler = (geckoId: string) => `
  const { ExtensionSearchHandler } = ChromeUtils.importESModule('resource://gre/modules/ExtensionSearchHandler.sys.mjs');
  const keyword = WebExtensionPolicy.getByID(${JSON.stringify(geckoId)}).extension.manifest.omnibox.keyword;`;

/**
 * Types `text` after the keyword a key at a time, in a new input session (one left open by an earlier call is
 * cancelled first, as leaving the address bar does); answers the suggestions given for the whole text within `waitMs`
 * of the last key, with when each came (ms after that key, the window's clock).
 */
export async function typeInOmnibox(browser: Browser, geckoId: string, text: string, waitMs: number): Promise<SuggestCall[]> {
  // As JSON: WebDriver BiDi hands arrays and objects back as remote values.
  const calls = await inBrowserChrome<string>(
    browser,
    `(async () => {
      ${handler(geckoId)}
      if (ExtensionSearchHandler.hasActiveInputSession()) ExtensionSearchHandler.handleInputCancelled();
      const typed = ${JSON.stringify(text)};
      const calls = [];
      for (let end = 1; end <= typed.length; end++) {
        const sofar = typed.slice(0, end);
        const keystroke = performance.now();
        ExtensionSearchHandler.handleSearch({ keyword, text: keyword + ' ' + sofar }, (suggestions) => {
          if (sofar === typed) calls.push({ at: performance.now() - keystroke, suggestions: suggestions.map(({ content, description }) => ({ content, description })) });
        });
      }
      await new Promise((resolve) => setTimeout(resolve, ${waitMs}));
      return JSON.stringify(calls);
    })()`,
  );
  return JSON.parse(calls) as SuggestCall[];
}

/** Firefox's words for where the address bar opens what was entered, by the extension API's disposition. */
const WHERE = { currentTab: 'current', newForegroundTab: 'tab', newBackgroundTab: 'tabshifted' } as const;

/**
 * Enter on `content` (a suggestion's, or the words typed) where `disposition` says. The address bar shows the
 * chosen suggestion's text after the keyword, so with no input session open (Enter ends one) it opens one for it first.
 */
export async function enterInOmnibox(browser: Browser, geckoId: string, content: string, disposition: keyof typeof WHERE): Promise<void> {
  await inBrowserChrome<void>(
    browser,
    `(() => {
      ${handler(geckoId)}
      const text = keyword + ' ' + ${JSON.stringify(content)};
      if (!ExtensionSearchHandler.hasActiveInputSession()) ExtensionSearchHandler.handleSearch({ keyword, text }, () => {});
      ExtensionSearchHandler.handleInputEntered(keyword, text, ${JSON.stringify(WHERE[disposition])});
    })()`,
  );
}
