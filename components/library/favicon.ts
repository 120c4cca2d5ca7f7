import { useCallback, useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { shownImage } from '../../lib/dom/shown-values.ts';

/**
 * Each favicon address is asked for once in the page, by one item at a time. A site's favicon is one address for all
 * its bookmarks, and the browser keeps no failed image: when every item drew its own image, a scroll of the
 * 10,000-card grid asked hundreds of times for addresses that never load (a site with no favicon, a host that does
 * not resolve) and met thousands of image error events (traced: 8,526; 2,729 still while only the items drawn after
 * a failure stopped asking), each an image to load, fail, lay out and paint. So the first item drawn for an address
 * tries it, and the others draw the placeholder until it has loaded (the page then has the image, and every item
 * draws it without another request) or for good once it has failed.
 */
type Attempt = 'loaded' | 'failed' | { tryingItem: object };

/** Per address: absent until an item tries it. */
const attempts = new Map<string, Attempt>();
/** The items drawn for each address, told when its attempt changes. */
const listeners = new Map<string, Set<() => void>>();

function settle(address: string, attempt: Attempt | undefined): void {
  // Every item drawing a loaded favicon reports its load too: nothing for the others to hear.
  if (attempts.get(address) === attempt) return;
  if (attempt === undefined) attempts.delete(address);
  else attempts.set(address, attempt);
  for (const listener of listeners.get(address) ?? []) listener();
}

function subscribe(address: string, listener: () => void): () => void {
  const own = listeners.get(address) ?? new Set();
  listeners.set(address, own.add(listener));
  return () => {
    own.delete(listener);
    if (own.size === 0) listeners.delete(address);
  };
}

const isTriedBy = (attempt: Attempt | undefined, item: object): boolean => typeof attempt === 'object' && attempt.tryingItem === item;

export interface Favicon {
  /** The image to draw, or null: none, not http(s), failed in this page, or being tried by another item. */
  src: string | null;
  /** For the image's load and error events. */
  onLoad(): void;
  onError(): void;
}

export function useFavicon(url: string | null | undefined): Favicon {
  const shown = shownImage(url);
  const [item] = useState(() => ({}));
  const attempt = useSyncExternalStore(
    useCallback((listener: () => void) => (shown === null ? () => undefined : subscribe(shown, listener)), [shown]),
    () => (shown === null ? undefined : attempts.get(shown)),
  );
  // Before the first paint: the item that takes the attempt draws its image in the frame it enters. The map, not this
  // render's `attempt`: items drawn in the same commit for one address would each take it.
  useLayoutEffect(() => {
    if (shown !== null && !attempts.has(shown)) settle(shown, { tryingItem: item });
  }, [shown, attempt, item]);
  // An item scrolled away before its image answered leaves the attempt to the next item drawn for the address.
  useLayoutEffect(
    () => () => {
      if (shown !== null && isTriedBy(attempts.get(shown), item)) settle(shown, undefined);
    },
    [shown, item],
  );
  const drawn = shown !== null && (attempt === 'loaded' || isTriedBy(attempt, item));
  return {
    src: drawn ? shown : null,
    onLoad: () => {
      if (shown !== null) settle(shown, 'loaded');
    },
    onError: () => {
      if (shown !== null) settle(shown, 'failed');
    },
  };
}
