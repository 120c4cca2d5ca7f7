import { useState } from 'react';
import { shownImage } from '../../lib/dom/shown-values.ts';

/**
 * The favicons that failed to load in this page. A site's favicon is one address for all its bookmarks, and the
 * browser keeps no failed image: without this, every item a scroll brings in asked again for an address that had
 * failed (a site with no favicon, a host that does not resolve), and each failure was an image load, an error
 * event and a broken image to lay out and paint (traced: 8,526 of them in one scroll of the 10,000-card grid).
 */
const failed = new Set<string>();

export interface Favicon {
  /** The image to draw, or null: none, not http(s), or failed in this page already. */
  src: string | null;
  /** For the image's error event: the address is not asked for again, and this item draws without it. */
  onError(): void;
}

export function useFavicon(url: string | null | undefined): Favicon {
  const shown = shownImage(url);
  // Only to re-render this item once its image has failed; the set answers for every item drawn after.
  const [, setFailedHere] = useState<string | null>(null);
  return {
    src: shown !== null && !failed.has(shown) ? shown : null,
    onError: () => {
      if (shown === null) return;
      failed.add(shown);
      setFailedHere(shown);
    },
  };
}
