import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { startOpeningReads } from './options/opening-reads.ts';

// options.html's first script (modules/early-scripts.ts).
export default defineUnlistedScript(() => startOpeningReads(window));
