import { DEFAULT_MAX_REDIRECTS, fetchPage, type FetchPageOptions } from '../metadata/index.ts';
import { type LinkVerdict, classifyLink } from './classify.ts';

export interface CheckLinkOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Replaceable only so that tests can stand in for a public host (see FetchPageOptions.guard). */
  guard?: FetchPageOptions['guard'];
}

/**
 * One link check: the metadata fetcher's GET, every hop through the SSRF guard, reading the
 * response headers only (the body is never read, so a check costs one round trip and no download).
 * A GET rather than a HEAD: too many servers answer HEAD with 404 or 405 for pages that exist.
 */
export async function checkLink(url: string, options: CheckLinkOptions): Promise<LinkVerdict> {
  const outcome = await fetchPage(url, {
    allowPrivate: options.allowPrivate,
    timeoutMs: options.timeoutMs,
    maxBytes: 0,
    maxRedirects: DEFAULT_MAX_REDIRECTS,
    wantBody: () => false,
    guard: options.guard,
  });
  return classifyLink(outcome);
}
