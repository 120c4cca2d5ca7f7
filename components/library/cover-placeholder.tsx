import type { Bookmark } from '../../lib/api/bookmarks.ts';
import { shownImage } from '../../lib/dom/shown-values.ts';

/** The same domain always gets the same hue, so a site's bookmarks look alike at a glance. */
export function domainHue(domain: string): number {
  let hash = 0;
  for (const char of domain.toLowerCase()) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return hash % 360;
}

/**
 * A bookmark's cover, or, when it has none (saved without the extension, or no image on the page), one made
 * from its domain: the favicon (or the domain's first letter) on a colour derived from the domain. Only
 * http(s) images are drawn (lib/dom/shown-values.ts).
 */
export function Cover({ bookmark: b, className = '' }: { bookmark: Bookmark; className?: string }) {
  const cover = shownImage(b.coverImage);
  if (cover) return <img src={cover} alt="" className={`object-cover ${className}`} loading="lazy" decoding="async" />;
  const favicon = shownImage(b.favicon);
  // Light enough that the letter's dark ink keeps its contrast in both schemes.
  return (
    <div data-testid="cover-placeholder" aria-hidden="true" className={`flex items-center justify-center ${className}`} style={{ backgroundColor: `hsl(${domainHue(b.domain)} 55% 82%)` }}>
      {favicon ? (
        <img src={favicon} alt="" width={32} height={32} className="h-8 w-8 rounded bg-white/70 p-1" loading="lazy" />
      ) : (
        <span className="text-2xl font-semibold uppercase text-zinc-900">{(b.domain || '?').charAt(0)}</span>
      )}
    </div>
  );
}
