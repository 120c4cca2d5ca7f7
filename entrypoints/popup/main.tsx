import { mountPopup } from './mount.tsx';
import { startPopup, tabIdFrom } from './startup.ts';
import './style.css';

// Asked before React starts, so that the background works while the page paints.
const startup = startPopup({ tabId: tabIdFrom(location.search) });

const root = document.getElementById('root');
if (!root) throw new Error('Shelf popup: the page has no #root element');

/** Runs `run` once the page has painted (at once in a hidden page, which paints nothing). */
function afterPaint(run: () => void): void {
  if (document.visibilityState !== 'visible') return run();
  requestAnimationFrame(() => setTimeout(run));
}

// The page shows the form from its first paint, Save working (popup-early.js holds a click): React takes it over right after that paint rather than hold it up.
afterPaint(() => mountPopup(root, startup));
