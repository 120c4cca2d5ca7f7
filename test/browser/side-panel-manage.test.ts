import { sidePanelManageScenarios } from '../scenarios/side-panel-manage.ts';
import { launchChromiumUser } from './chromium-user.ts';

sidePanelManageScenarios(launchChromiumUser);
