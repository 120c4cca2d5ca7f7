import { useEffect, useRef, useSyncExternalStore } from 'react';

const closeWindow = () => window.close();

/**
 * Escape closes the popup, unless a picker used it to close itself first (it
 * then prevents the default). Listening on the document runs after React's
 * own handlers, which sit on the root element below it.
 */
export function useEscapeCloses(close: () => void = closeWindow): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [close]);
}

/** Ctrl+Enter (⌘+Enter on a Mac) runs the latest `save` from anywhere in the popup. */
export function useSaveShortcut(save: () => void): void {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.defaultPrevented) return;
      e.preventDefault();
      latest.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

const neverChanges = () => () => undefined;

/**
 * The save shortcut's name on this computer. The pre-rendered page cannot know
 * the platform: it says Ctrl+Enter, and a Mac's popup says ⌘+Enter once React has it.
 */
export const useSaveShortcutLabel = (): string =>
  useSyncExternalStore(
    neverChanges,
    () => (/Mac|iPhone|iPad/.test(navigator.platform) ? '⌘+Enter' : 'Ctrl+Enter'),
    () => 'Ctrl+Enter',
  );
