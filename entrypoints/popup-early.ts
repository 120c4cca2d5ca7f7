import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { holdEarlyEvents } from './popup/early-events.ts';

// popup.html's first script (added by modules/prerender-popup.ts): it runs before the pre-rendered form shows.
export default defineUnlistedScript(() => holdEarlyEvents(window));
