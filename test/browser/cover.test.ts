import { coverScenarios } from '../scenarios/cover.ts';
import { launchChromiumUser } from './chromium-user.ts';

coverScenarios(launchChromiumUser, { answersPrompts: false });
