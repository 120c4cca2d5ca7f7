import { cleanUpScenarios } from '../scenarios/clean-up.ts';
import { launchFirefoxUser } from './support.ts';

cleanUpScenarios(launchFirefoxUser);
