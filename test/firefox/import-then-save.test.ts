import { importThenSaveScenarios } from '../scenarios/import-then-save.ts';
import { launchFirefoxUser } from './support.ts';

importThenSaveScenarios(launchFirefoxUser);
