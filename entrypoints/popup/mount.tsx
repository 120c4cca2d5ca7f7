import { type Root, createRoot, hydrateRoot } from 'react-dom/client';
import { PopupRoot } from './App.tsx';
import type { Startup } from './startup.ts';

/**
 * React takes over the form that popup.html already shows (shell.tsx rendered it
 * at build time), keeping its elements and what was typed in them. Under
 * `wxt dev` the page comes without it, and React renders the popup afresh.
 */
export function mountPopup(root: HTMLElement, startup: Startup): Root {
  if (!root.hasChildNodes()) {
    const fresh = createRoot(root);
    fresh.render(<PopupRoot startup={startup} />);
    return fresh;
  }
  return hydrateRoot(root, <PopupRoot startup={startup} />, {
    // A mismatch costs the page's elements (React renders them again): said loudly, so that tests catch it.
    onRecoverableError: (error) => console.error('Shelf popup: the pre-rendered form did not match what React rendered', error),
  });
}
