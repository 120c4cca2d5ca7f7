import { libraryPageScenarios } from '../scenarios/library-page.ts';
import { launchFirefoxUser } from './support.ts';

libraryPageScenarios(launchFirefoxUser);
