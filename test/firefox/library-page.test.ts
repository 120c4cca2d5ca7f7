import { expect } from 'vitest';
import { userPageViolations } from '../browser/axe.ts';
import { libraryPageScenarios } from '../scenarios/library-page.ts';
import { inBrowserChrome } from './browser-chrome.ts';
import { type FirefoxUser, launchFirefoxUser } from './support.ts';

let user: FirefoxUser;

libraryPageScenarios(async () => (user = await launchFirefoxUser()), {
  async accessibilityViolations(colorScheme) {
    // The colour scheme pages see, as Firefox's Settings → Website appearance sets it (0 dark, 1 light).
    await inBrowserChrome(user.browser, `Services.prefs.setIntPref('layout.css.prefers-color-scheme.content-override', ${colorScheme === 'dark' ? 0 : 1})`);
    const page = await user.open('library.html');
    try {
      const found: Record<string, string[]> = {};
      for (const view of ['List', 'Cards', 'Grid']) {
        await page.clickIn(['group', 'View'], 'button', view);
        await expect.poll(() => page.textsIn(['list', 'All bookmarks'], 'link'), { timeout: 10_000, interval: 100 }).toContain('Dev here');
        found[view] = await userPageViolations(page);
      }
      return found;
    } finally {
      await page.close();
    }
  },
});
