import { savedIconScenarios } from '../scenarios/saved-icon.ts';
import { launchFirefoxUser } from './support.ts';

savedIconScenarios(launchFirefoxUser);
