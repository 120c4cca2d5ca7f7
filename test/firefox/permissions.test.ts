import { permissionScenarios } from '../scenarios/permissions.ts';
import { inBrowserChrome } from './browser-chrome.ts';
import { type FirefoxUser, launchFirefoxUser } from './support.ts';

let user: FirefoxUser;

permissionScenarios(async () => (user = await launchFirefoxUser()), {
  answersPrompts: true,
  // In the profile's Places, as Firefox's own bookmark manager adds it.
  addBrowserBookmark: (url, title) =>
    inBrowserChrome(
      user.browser,
      `ChromeUtils.importESModule('resource://gre/modules/PlacesUtils.sys.mjs').PlacesUtils.bookmarks.insert({
        parentGuid: 'toolbar_____', url: ${JSON.stringify(url)}, title: ${JSON.stringify(title)} }).then(() => undefined)`,
    ),
});
