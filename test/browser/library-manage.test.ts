import { cleanUpScenarios } from '../scenarios/clean-up.ts';
import { launchChromiumUser } from './chromium-user.ts';

cleanUpScenarios(launchChromiumUser);
