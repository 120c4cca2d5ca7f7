import { saveAllTabsScenarios } from '../scenarios/save-all-tabs.ts';
import { launchFirefoxUser } from './support.ts';

saveAllTabsScenarios(launchFirefoxUser);
