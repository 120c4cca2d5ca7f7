import { hostAccessScenarios } from '../scenarios/host-access.ts';
import { launchFirefoxUser } from './support.ts';

hostAccessScenarios(launchFirefoxUser, { answersPrompts: true });
