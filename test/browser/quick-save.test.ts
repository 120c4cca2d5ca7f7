import { quickSaveScenarios } from '../scenarios/quick-save.ts';
import { launchChromiumUser } from './chromium-user.ts';

quickSaveScenarios(launchChromiumUser);
