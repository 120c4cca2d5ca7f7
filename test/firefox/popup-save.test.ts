import { popupSaveScenarios } from '../scenarios/popup-save.ts';
import { launchFirefoxUser } from './support.ts';

popupSaveScenarios(launchFirefoxUser);
