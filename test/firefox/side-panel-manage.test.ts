import { sidePanelManageScenarios } from '../scenarios/side-panel-manage.ts';
import { launchFirefoxUser } from './support.ts';

sidePanelManageScenarios(launchFirefoxUser);
