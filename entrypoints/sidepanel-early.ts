import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { startOpeningReads } from './sidepanel/opening-reads.ts';

// sidepanel.html's first script (modules/early-scripts.ts).
export default defineUnlistedScript(() => startOpeningReads(window));
