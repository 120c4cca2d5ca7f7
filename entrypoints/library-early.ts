import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { startOpeningReads } from './library/opening-reads.ts';

// library.html's first script (modules/early-scripts.ts).
export default defineUnlistedScript(() => startOpeningReads(window));
