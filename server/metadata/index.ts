/**
 * Page metadata for bookmarks saved without a title or description: fetch the
 * page (through the SSRF guard) and read what it says about itself.
 */
import { classifyType, decodeBody, defaultFavicon, extractHtml, isHtmlContentType, type PageType } from './extract.ts';
import { fetchPage, type FetchOutcome, type FetchPageOptions } from './fetch-page.ts';

export { checkUrl, isPublicAddress, resolveHost } from './ssrf-guard.ts';
export type { GuardResult, ResolvedAddress, Resolver } from './ssrf-guard.ts';
export { classifyType, decodeBody, extractHtml } from './extract.ts';
export type { ExtractedHtml, PageType } from './extract.ts';
export { fetchPage, USER_AGENT } from './fetch-page.ts';
export type { FetchOutcome, FetchPageOptions } from './fetch-page.ts';

export interface PageMetadata {
  /** '' if none found. */
  title: string;
  /** '' if none found. */
  description: string;
  /** First ~300 characters of body text, '' if none. */
  excerpt: string;
  /** Absolute URL; `${origin}/favicon.ico` when the page names none; '' when the URL was refused. */
  favicon: string;
  type: PageType;
  /** Final HTTP status, 0 when no response. */
  httpStatus: number;
  linkStatus: 'ok' | 'broken' | 'unreachable' | 'unchecked';
  /** Whether a response was read. */
  fetched: boolean;
}

export interface FetchOptions {
  /** Allow loopback/private/link-local targets (self-hosted, single-user setups). */
  allowPrivate: boolean;
  /** Deadline for the whole operation, redirects included. Default 3000. */
  timeoutMs?: number;
  /** Body bytes read before we stop. Default 512 KiB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
}

export const DEFAULT_TIMEOUT_MS = 3000;
export const DEFAULT_MAX_BYTES = 512 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

const isOk = (status: number): boolean => status >= 200 && status < 300;

function toMetadata(outcome: FetchOutcome, requestedUrl: string): PageMetadata {
  const empty = { title: '', description: '', excerpt: '', type: 'link' as const };
  switch (outcome.kind) {
    case 'refused':
      // No favicon: pointing clients at a host we refused to contact helps nobody.
      return { ...empty, favicon: '', httpStatus: 0, linkStatus: 'unchecked', fetched: false };
    case 'unreachable':
      return { ...empty, favicon: defaultFavicon(requestedUrl), httpStatus: 0, linkStatus: 'unreachable', fetched: false };
    case 'response': {
      const base = {
        ...empty,
        favicon: defaultFavicon(outcome.url),
        type: classifyType(outcome.contentType, ''),
        httpStatus: outcome.status,
        // Anything that is not 2xx after redirects (4xx, 5xx, a 3xx we could not follow) is a dead link.
        linkStatus: isOk(outcome.status) ? ('ok' as const) : ('broken' as const),
        fetched: true,
      };
      if (outcome.body.length === 0) return base;
      const html = extractHtml(decodeBody(outcome.body, outcome.contentType), outcome.url);
      return {
        ...base,
        title: html.title,
        description: html.description,
        excerpt: html.excerpt,
        favicon: html.favicon,
        type: classifyType(outcome.contentType, html.ogType),
      };
    }
  }
}

/**
 * Fetches `url` and describes it. Never throws; failures show up in
 * `linkStatus`. Bodies are parsed only for 2xx HTML responses, so an error
 * page's "Not Found" never becomes a bookmark title.
 */
export async function fetchPageMetadata(url: string, options: FetchOptions): Promise<PageMetadata> {
  const fetchOptions: FetchPageOptions = {
    allowPrivate: options.allowPrivate,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    wantBody: (status, contentType) => isOk(status) && isHtmlContentType(contentType),
  };
  try {
    return toMetadata(await fetchPage(url, fetchOptions), url);
  } catch {
    // fetchPage and the extractors are written not to throw; this is the backstop for the contract.
    return {
      title: '',
      description: '',
      excerpt: '',
      favicon: '',
      type: 'link',
      httpStatus: 0,
      linkStatus: 'unreachable',
      fetched: false,
    };
  }
}
