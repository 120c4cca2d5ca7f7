import { savedIconScenarios } from '../scenarios/saved-icon.ts';
import { launchChromiumUser } from './chromium-user.ts';

savedIconScenarios(launchChromiumUser);
