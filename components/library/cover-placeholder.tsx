import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { shownImage } from '../../lib/dom/shown-values.ts';
import { useFavicon } from './favicon.ts';

/** The same domain always gets the same hue, so a site's bookmarks look alike at a glance. */
export function domainHue(domain: string): number {
  let hash = 0;
  for (const char of domain.toLowerCase()) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return hash % 360;
}

/**
 * A bookmark's cover, or, when it has none (saved without the extension, or no image on the page), one made
 * from its domain: the favicon (or the domain's first letter, as when the favicon fails) on a colour derived
 * from the domain. Only http(s) images are drawn (lib/dom/shown-values.ts).
 */
export function Cover({ bookmark: b, className = '' }: { bookmark: Bookmark; className?: string }) {
  const cover = shownImage(b.coverImage);
  const favicon = useFavicon(cover ? null : b.favicon);
  if (cover) return <img src={cover} alt="" className={`object-cover ${className}`} loading="lazy" decoding="async" />;
  // Light enough that the letter's dark ink keeps its contrast in both schemes.
  return (
    <div data-testid="cover-placeholder" aria-hidden="true" className={`flex items-center justify-center ${className}`} style={{ backgroundColor: `hsl(${domainHue(b.domain)} 55% 82%)` }}>
      {favicon.src ? (
        <img src={favicon.src} alt="" width={32} height={32} className="h-8 w-8 rounded bg-white/70 p-1" loading="lazy" onLoad={favicon.onLoad} onError={favicon.onError} />
      ) : (
        <span className="text-2xl font-semibold uppercase text-zinc-900">{(b.domain || '?').charAt(0)}</span>
      )}
    </div>
  );
}
