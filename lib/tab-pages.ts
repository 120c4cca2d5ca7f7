import { MAX_TITLE_LENGTH } from './api/bookmarks.ts';
import { normaliseUrl } from './url.ts';

const WEB_PAGE = /^https?:\/\//i;

/** Whether Shelf can save the page at `url`: http and https; not the browser's own or local pages. */
export const isWebPage = (url: string | undefined): url is string => url !== undefined && WEB_PAGE.test(url);

export interface TabPage {
  url: string;
  title: string;
}

/**
 * The tabs' web pages, each once (two tabs of one page are one save): what *Save all tabs* saves, and what the
 * popup counts before it does.
 */
export function webPages(tabs: readonly { url?: string; title?: string }[]): TabPage[] {
  const pages = new Map<string, TabPage>();
  for (const { url, title } of tabs) {
    if (!isWebPage(url)) continue;
    const key = normaliseUrl(url);
    if (!pages.has(key)) pages.set(key, { url, title: (title ?? '').trim().slice(0, MAX_TITLE_LENGTH) });
  }
  return [...pages.values()];
}
