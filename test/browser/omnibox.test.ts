import { omniboxScenarios } from '../scenarios/omnibox.ts';
import { launchChromiumUser } from './chromium-user.ts';

omniboxScenarios(launchChromiumUser);
