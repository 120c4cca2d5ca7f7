import { hydrateRoot } from 'react-dom/client';
import { PopupRoot } from './App.tsx';
import { startPopup, tabIdFrom } from './startup.ts';
import './style.css';

// Asked before React starts, so that the background works while the page renders.
const startup = startPopup({ tabId: tabIdFrom(location.search) });

const root = document.getElementById('root');
if (!root) throw new Error('Shelf popup: the page has no #root element');
// The page already shows the form (rendered at build time): React takes it over as it is.
hydrateRoot(root, <PopupRoot startup={startup} />, {
  onRecoverableError: (error) => console.error('Shelf popup: the pre-rendered form did not match; React rendered it again', error),
});
