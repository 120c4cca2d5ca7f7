import { saveQueueScenarios } from '../scenarios/save-queue.ts';
import { launchChromiumUser } from './chromium-user.ts';

saveQueueScenarios(launchChromiumUser);
