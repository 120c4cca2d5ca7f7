import { coverScenarios } from '../scenarios/cover.ts';
import { launchFirefoxUser } from './support.ts';

coverScenarios(launchFirefoxUser, { answersPrompts: true });
