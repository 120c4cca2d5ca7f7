import { hostAccessScenarios } from '../scenarios/host-access.ts';
import { launchChromiumUser } from './chromium-user.ts';

hostAccessScenarios(launchChromiumUser, { answersPrompts: false });
