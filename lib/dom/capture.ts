type Listeners = { [K in keyof DocumentEventMap]?: (event: DocumentEventMap[K]) => void };

/**
 * Listens on the whole document in the capture phase, before any of the
 * page's own handlers (an early script holding what the user does until the
 * app takes over); answers how to stop.
 */
export function captureOnDocument(doc: Document, listeners: Listeners): () => void {
  const entries = Object.entries(listeners) as [string, EventListener][];
  for (const [type, listener] of entries) doc.addEventListener(type, listener, true);
  return () => {
    for (const [type, listener] of entries) doc.removeEventListener(type, listener, true);
  };
}
