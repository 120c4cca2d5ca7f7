import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { holdEarlyEvents } from './popup/early-events.ts';

// A classic script in popup.html's head (added by modules/prerender-popup.ts): it runs before the pre-rendered form can be used.
export default defineUnlistedScript(() => holdEarlyEvents(window));
