import { createHash } from 'node:crypto';
import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Bookmark } from '../../lib/api/bookmarks.ts';
import type { ServerDeps } from '../deps.ts';
import type { AppEnv } from '../http/env.ts';
import type { SharedCollection } from '../store/collections.ts';

/** A public page lists at most this many bookmarks, newest first. */
export const SHARED_PAGE_LIMIT = 500;

const STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;background:#fff}',
  'h1{font-size:1.6rem;margin:0 0 .25rem}',
  'ul{list-style:none;padding:0}',
  'li{padding:.75rem 0;border-top:1px solid #ddd}',
  'a{color:#0645ad;font-weight:600}',
  'a:focus{outline:3px solid #1a73e8;outline-offset:2px}',
  '.domain,.meta{color:#555;font-size:.9rem}',
  '.domain{margin-left:.5rem}',
  'li p{margin:.25rem 0 0}',
].join('');

/** Nothing but this one inline style may load or run: titles and descriptions are other people's text. */
const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string): string => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

/**
 * GET /shared/:slug, outside /v1: the public, read-only page of a shared
 * collection. No token, no envelope; the per-IP gateway limit still applies.
 */
export function sharedPages({ store, guards }: ServerDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/:slug', async (c) => {
    const gateway = await guards.gateway(c.get('clientIp'));
    if (!gateway.allowed) {
      c.header('Retry-After', String(gateway.retryAfterSeconds));
      return page(c, 429, 'Too many requests', '<p>Too many requests from this address. Try again in a minute.</p>');
    }
    const shared = await store.collections.shared(c.req.param('slug'), SHARED_PAGE_LIMIT);
    if (!shared) {
      return page(c, 404, 'Not found', '<p>This shared collection does not exist or is no longer shared.</p>');
    }
    return page(c, 200, shared.collection.name, collectionBody(shared));
  });
  return app;
}

function collectionBody({ collection, bookmarks, more }: SharedCollection): string {
  const count = `${collection.bookmarkCount} bookmark${collection.bookmarkCount === 1 ? '' : 's'}`;
  const shown = more ? `${count}; the ${bookmarks.length} newest are listed` : count;
  const items = bookmarks.map(bookmarkItem).join('\n');
  return `<p class="meta">${escape(shown)}</p>\n<ul>\n${items}\n</ul>`;
}

function bookmarkItem(b: Bookmark): string {
  const label = escape(b.title || b.url);
  // Saved URLs are http(s); anything else is shown, never made a link.
  const link = /^https?:\/\//i.test(b.url) ? `<a href="${escape(b.url)}" rel="noopener noreferrer nofollow">${label}</a>` : label;
  const description = b.description ? `<p>${escape(b.description)}</p>` : '';
  return `<li>${link}<span class="domain">${escape(b.domain)}</span>${description}</li>`;
}

function page(c: Context<AppEnv>, status: ContentfulStatusCode, title: string, body: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)} · Shelf</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escape(title)}</h1>
${body}
</main>
</body>
</html>
`;
  return c.body(html, status, HEADERS);
}
