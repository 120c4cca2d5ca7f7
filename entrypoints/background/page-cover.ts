import type { browser } from 'wxt/browser';
import { type CardCover, cardCover } from '../../lib/image/card-cover.ts';
import { type FetchedImage, readBlobInPage, readImage } from './cover-image.ts';

type Browser = typeof browser;

/** How many of a page's preview images are tried before its capture. */
const MAX_CANDIDATES = 3;

/**
 * Runs in the page (chrome.scripting): self-contained. The page's preview images as its meta tags name them,
 * Open Graph first, then Twitter's, as absolute http(s) URLs without repeats.
 */
export function previewImagesInPage(): string[] {
  const names = ['og:image', 'og:image:secure_url', 'og:image:url', 'twitter:image', 'twitter:image:src'];
  // Sites write either attribute, in any case.
  const metas = [...document.querySelectorAll<HTMLMetaElement>('meta[content]')].map((meta) => ({
    key: (meta.getAttribute('property') || meta.getAttribute('name') || '').trim().toLowerCase(),
    content: meta.content.trim(),
  }));
  const found: string[] = [];
  for (const name of names) {
    for (const { key, content } of metas) {
      if (key !== name) continue;
      if (!content || !URL.canParse(content, document.baseURI)) continue;
      const url = new URL(content, document.baseURI).href;
      if (/^https?:/i.test(url) && !found.includes(url)) found.push(url);
    }
  }
  return found;
}

export interface PageCoverDeps {
  /** The page's preview image URLs; empty when the page may not be read. */
  previewImages(tabId: number): Promise<string[]>;
  /** An image's bytes, read where Shelf may: its own fetch when it holds access to the image's site, else in the page. */
  readPreview(url: string, tabId: number): Promise<FetchedImage>;
  /** The visible part of the tab as an image; null when it is not the window's visible tab. */
  capture(tabId: number): Promise<Blob | null>;
  /** Scaled and compressed to a card's size; rejects what cannot be decoded. */
  shrink(image: Blob): Promise<CardCover>;
}

/**
 * A cover for the page in a tab, made at save time: its first preview image Shelf may read and can draw, else a
 * capture of the visible tab; null when neither can be had (no access to the page, a hidden tab).
 */
export async function pageCover(tabId: number, deps: PageCoverDeps): Promise<CardCover | null> {
  const candidates = (await deps.previewImages(tabId).catch(() => [])).slice(0, MAX_CANDIDATES);
  for (const url of candidates) {
    try {
      const image = await deps.readPreview(url, tabId);
      return await deps.shrink(new Blob([image.bytes], image.declaredType ? { type: image.declaredType } : {}));
    } catch {
      // Unreadable here, gone, or no image a card can show (an SVG, an icon): the next one, or the capture.
    }
  }
  const capture = await deps.capture(tabId).catch(() => null);
  return capture && deps.shrink(capture).catch(() => null);
}

/**
 * The page cover as the browser makes it. The page is read under the access the user's gesture gave (the popup's
 * click, the shortcut, the context menu grant activeTab); an image on another site is fetched by Shelf only where
 * it already holds access to that site, else in the page (its own site, or one that allows it): no prompt, ever.
 */
export function browserPageCover(browser: Browser, hasSiteAccess: (origin: string) => Promise<boolean>): (tabId: number) => Promise<CardCover | null> {
  const deps: PageCoverDeps = {
    async previewImages(tabId) {
      const [result] = await browser.scripting.executeScript({ target: { tabId }, func: previewImagesInPage });
      const urls: unknown = result?.result;
      return Array.isArray(urls) ? urls.filter((u): u is string => typeof u === 'string') : [];
    },
    async readPreview(url, tabId) {
      const fetchAnywhere = { fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init), readBlob: () => Promise.reject(new Error('no blob')) };
      if (await hasSiteAccess(new URL(url).origin)) return readImage({ srcUrl: url }, fetchAnywhere);
      return readImage({ srcUrl: await readBlobInPage(browser, { srcUrl: url, tabId }) }, fetchAnywhere);
    },
    async capture(tabId) {
      const tab = await browser.tabs.get(tabId);
      // captureVisibleTab shows whatever the window shows: only the saved tab's own picture will do.
      if (!tab.active || tab.windowId === undefined) return null;
      const dataUrl = await browser.tabs.captureVisibleTab(tab.windowId, { format: 'jpeg', quality: 90 });
      return (await fetch(dataUrl)).blob();
    },
    shrink: (image) => cardCover(image),
  };
  return (tabId) => pageCover(tabId, deps);
}
