import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { startEarlyOpening } from './sidepanel/early-opening.ts';

// sidepanel.html's first script: it starts the storage reads the panel opens with while the panel's own JavaScript loads.
export default defineUnlistedScript(() => startEarlyOpening(window));
