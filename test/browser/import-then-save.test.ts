import { importThenSaveScenarios } from '../scenarios/import-then-save.ts';
import { launchChromiumUser } from './chromium-user.ts';

importThenSaveScenarios(launchChromiumUser);
