import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { shownImage } from '../../lib/dom/shown-values.ts';
import { useFavicon } from './favicon.ts';

/** The same domain always gets the same hue, so a site's bookmarks look alike at a glance. */
export function domainHue(domain: string): number {
  let hash = 0;
  for (const char of domain.toLowerCase()) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return hash % 360;
}

/** Light enough that the letter's dark ink keeps its contrast in both schemes. */
const coverColour = (domain: string) => `hsl(${domainHue(domain)} 55% 82%)`;

/** The cover's colour alone, for a grid tile that enters while the list is flung (components/library/fling.ts). */
export function CoverBlock({ bookmark: b }: { bookmark: Bookmark }) {
  return <div aria-hidden="true" className="h-full rounded-lg" style={{ backgroundColor: coverColour(b.domain) }} />;
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
  return (
    <div data-testid="cover-placeholder" aria-hidden="true" className={`flex items-center justify-center ${className}`} style={{ backgroundColor: coverColour(b.domain) }}>
      {favicon.src ? (
        <img src={favicon.src} alt="" width={32} height={32} className="h-8 w-8 rounded bg-white/70 p-1" loading="lazy" onLoad={favicon.onLoad} onError={favicon.onError} />
      ) : (
        <span className="text-2xl font-semibold uppercase text-zinc-900">{(b.domain || '?').charAt(0)}</span>
      )}
    </div>
  );
}
