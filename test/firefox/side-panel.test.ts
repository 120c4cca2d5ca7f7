import { sidePanelScenarios } from '../scenarios/side-panel.ts';
import { launchFirefoxUser } from './support.ts';

sidePanelScenarios(launchFirefoxUser);
