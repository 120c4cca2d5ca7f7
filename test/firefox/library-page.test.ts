import { expect } from 'vitest';
import { userPageTransitionsEnded, userPageViolations } from '../browser/axe.ts';
import { libraryPageScenarios } from '../scenarios/library-page.ts';
import type { UserPage } from '../scenarios/user.ts';
import { inBrowserChrome } from './browser-chrome.ts';
import { type FirefoxUser, launchFirefoxUser } from './support.ts';

let user: FirefoxUser;

/** The library page the scans share, one load (and one injection of axe-core's source) for both colour schemes; it goes with the user. */
let scanned: UserPage | undefined;

libraryPageScenarios(async () => (user = await launchFirefoxUser()), {
  async accessibilityViolations(colorScheme) {
    // The colour scheme pages see, as Firefox's Settings → Website appearance sets it (0 dark, 1 light): open pages follow it.
    await inBrowserChrome(user.browser, `Services.prefs.setIntPref('layout.css.prefers-color-scheme.content-override', ${colorScheme === 'dark' ? 0 : 1})`);
    scanned ??= await user.open('library.html');
    const page = scanned;
    // Its colours are scanned once they have changed.
    await expect.poll(() => page.evaluate((scheme) => matchMedia(`(prefers-color-scheme: ${scheme})`).matches, colorScheme), { timeout: 10_000 }).toBe(true);
    await userPageTransitionsEnded(page);
    const found: Record<string, string[]> = {};
    for (const view of ['List', 'Cards', 'Grid']) {
      await page.clickIn(['group', 'View'], 'button', view);
      await expect.poll(() => page.textsIn(['list', 'All bookmarks'], 'link'), { timeout: 10_000, interval: 100 }).toContain('Dev here');
      found[view] = await userPageViolations(page);
    }
    return found;
  },
});
