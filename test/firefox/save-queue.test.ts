import { saveQueueScenarios } from '../scenarios/save-queue.ts';
import { launchFirefoxUser } from './support.ts';

saveQueueScenarios(launchFirefoxUser);
