import { useCallback, useRef } from 'react';

type Field = HTMLInputElement | HTMLTextAreaElement;

/**
 * A field of a pre-rendered page (the popup's) may hold what the user typed
 * before React took the page over: React leaves that on screen, but its next
 * render would write the rendered value back. As the field mounts, this hands
 * what the element holds to `adopt` when it differs from what was rendered.
 * Returns the field's ref. Without a pre-rendered page the two never differ.
 */
export function useEarlyValue<E extends Field, V>(read: (field: E) => V, rendered: V, adopt: ((value: V) => void) | undefined): (field: E | null) => void {
  // What the first render saw: the element holds it, or what the user typed over it. Used once, as the field first mounts.
  const first = useRef<{ read: typeof read; rendered: V; adopt: typeof adopt } | null>({ read, rendered, adopt });
  return useCallback((field: E | null) => {
    if (!field || !first.current) return;
    const { read, rendered, adopt } = first.current;
    first.current = null;
    const held = read(field);
    if (adopt && held !== rendered) adopt(held);
  }, []);
}
