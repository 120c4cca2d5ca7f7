import { quickSaveScenarios } from '../scenarios/quick-save.ts';
import { launchFirefoxUser } from './support.ts';

quickSaveScenarios(launchFirefoxUser);
