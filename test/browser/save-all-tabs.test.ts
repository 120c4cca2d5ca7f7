import { saveAllTabsScenarios } from '../scenarios/save-all-tabs.ts';
import { launchChromiumUser } from './chromium-user.ts';

saveAllTabsScenarios(launchChromiumUser);
