import { optionsSectionsScenarios } from '../scenarios/options-sections.ts';
import { grantAsAboutAddons } from './browser-chrome.ts';
import { type FirefoxUser, GECKO_ID, launchFirefoxUser } from './support.ts';

let user: FirefoxUser;

optionsSectionsScenarios(async () => (user = await launchFirefoxUser()), {
  grantSiteAccess: (origins) => grantAsAboutAddons(user.browser, GECKO_ID, origins),
});
