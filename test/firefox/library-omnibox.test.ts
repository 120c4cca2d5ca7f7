import { omniboxScenarios } from '../scenarios/omnibox.ts';
import { launchFirefoxUser } from './support.ts';

omniboxScenarios(launchFirefoxUser);
