import { hydratePopup } from './hydrate.tsx';
import { startPopup, tabIdFrom } from './startup.ts';
import './style.css';

// Asked before React starts, so that the background works while the page renders.
const startup = startPopup({ tabId: tabIdFrom(location.search) });

const root = document.getElementById('root');
if (!root) throw new Error('Shelf popup: the page has no #root element');
hydratePopup(root, startup);
