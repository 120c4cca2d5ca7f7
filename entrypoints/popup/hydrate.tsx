import { type Root, hydrateRoot } from 'react-dom/client';
import { PopupRoot } from './App.tsx';
import type { Startup } from './startup.ts';

/** React takes over the form that popup.html already shows (shell.tsx rendered it at build time), keeping its elements and what was typed in them. */
export function hydratePopup(root: HTMLElement, startup: Startup): Root {
  return hydrateRoot(root, <PopupRoot startup={startup} />, {
    // A mismatch costs the page's elements (React renders them again): said loudly, so that tests catch it.
    onRecoverableError: (error) => console.error('Shelf popup: the pre-rendered form did not match what React rendered', error),
  });
}
