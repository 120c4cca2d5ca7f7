/**
 * Turns a fetched response (content type + body bytes) into bookmark
 * metadata. No I/O here, so it can be tested on strings.
 */
import { Parser } from 'htmlparser2';

export type PageType = 'link' | 'article' | 'image' | 'video' | 'document';

export interface ExtractedHtml {
  title: string;
  description: string;
  excerpt: string;
  favicon: string;
  ogType: string;
}

const TITLE_MAX = 500;
const DESCRIPTION_MAX = 2000;
const EXCERPT_TARGET = 300;
/** Paragraphs shorter than this are usually "Skip to content", bylines or cookie notices. */
const EXCERPT_MIN = 40;
/** The HTML spec prescans 1024 bytes for <meta charset>; a little more catches pages with long preambles. */
const CHARSET_PRESCAN_BYTES = 4096;

// ---------------------------------------------------------------------------
// Content type

/** `text/HTML; charset=UTF-8` → `text/html`. */
export function mediaTypeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

export function isHtmlContentType(contentType: string): boolean {
  const media = mediaTypeOf(contentType);
  return media === 'text/html' || media === 'application/xhtml+xml';
}

function charsetParam(contentType: string): string {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return match?.[1]?.toLowerCase() ?? '';
}

const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/rtf',
  'text/rtf',
  'application/epub+zip',
]);
const DOCUMENT_PREFIXES = ['application/vnd.openxmlformats-officedocument.', 'application/vnd.oasis.opendocument.'];

/** The Content-Type decides for media and documents; only HTML pages get to use og:type. */
export function classifyType(contentType: string, ogType: string): PageType {
  const media = mediaTypeOf(contentType);
  if (media.startsWith('image/')) return 'image';
  if (media.startsWith('video/')) return 'video';
  if (DOCUMENT_TYPES.has(media) || DOCUMENT_PREFIXES.some((p) => media.startsWith(p))) return 'document';
  if (!isHtmlContentType(contentType)) return 'link';
  const og = ogType.trim().toLowerCase();
  if (og === 'article') return 'article';
  if (og.startsWith('video')) return 'video';
  return 'link';
}

// ---------------------------------------------------------------------------
// Charset

function decoderFor(label: string): TextDecoder | null {
  if (label === '') return null;
  try {
    // The WHATWG table maps latin1/iso-8859-1/ascii to windows-1252, as browsers do.
    return new TextDecoder(label);
  } catch {
    return null;
  }
}

function metaCharset(body: Uint8Array): string {
  // latin1 maps bytes 1:1, so ASCII markup survives whatever the real encoding is.
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, CHARSET_PRESCAN_BYTES)).toString(
    'latin1',
  );
  let found = '';
  const parser = new Parser({
    onopentag(name, attribs) {
      if (found !== '' || name !== 'meta') return;
      if (attribs.charset) {
        found = attribs.charset.trim().toLowerCase();
      } else if (attribs['http-equiv']?.toLowerCase() === 'content-type' && attribs.content) {
        found = charsetParam(`x;${attribs.content.replace(/^[^;]*;?/, '')}`);
      }
    },
  });
  parser.write(head);
  parser.end();
  return found;
}

// Node 20.18.3+/22.13+ decode windows-1252 (and so latin1/ascii, which the
// WHATWG table maps to it) as ISO-8859-1, turning € and curly quotes into C1
// controls (nodejs/node#60888). Latin-1 plus this table for 0x80–0x9F is the
// correct mapping on every Node version.
const WINDOWS_1252_C1 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80] ?? c);
}

/**
 * Bytes → text with the browser's precedence: BOM, then the Content-Type
 * charset, then <meta charset>, then UTF-8. Unknown labels fall through to
 * the next source. Malformed bytes become U+FFFD instead of throwing, which
 * also covers a multi-byte character cut off by the byte limit.
 */
export function decodeBody(body: Uint8Array, contentType: string): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return new TextDecoder('utf-8').decode(body);
  if (body[0] === 0xff && body[1] === 0xfe) return new TextDecoder('utf-16le').decode(body);
  if (body[0] === 0xfe && body[1] === 0xff) return new TextDecoder('utf-16be').decode(body);

  let decoder = decoderFor(charsetParam(contentType));
  if (!decoder) {
    const meta = decoderFor(metaCharset(body));
    // A page that reached us as bytes cannot really be UTF-16 if its ASCII
    // <meta> was readable; the HTML spec says to treat that claim as UTF-8.
    decoder = meta && !meta.encoding.startsWith('utf-16') ? meta : null;
  }
  if (decoder?.encoding === 'windows-1252') return decodeWindows1252(body);
  return (decoder ?? new TextDecoder('utf-8')).decode(body);
}

// ---------------------------------------------------------------------------
// HTML

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Cuts at `max` UTF-16 units without leaving half a surrogate pair behind. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

function excerptOf(text: string): string {
  if (text.length <= EXCERPT_TARGET) return text;
  const cut = clip(text, EXCERPT_TARGET);
  const space = cut.lastIndexOf(' ');
  // Prefer a word boundary, unless that would throw away a large part of the text.
  return `${(space > EXCERPT_TARGET * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function absoluteHttpUrl(href: string, base: string): string | null {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Elements whose paragraphs are page furniture rather than content. */
const NON_CONTENT = new Set(['nav', 'header', 'footer', 'aside', 'form', 'script', 'style', 'noscript', 'template']);
/** Scopes for the excerpt, best first; anything else counts as "body". */
const SCOPES = ['article', 'main'] as const;
/** Text kept per paragraph; enough for an excerpt, bounded against giant <p>s. */
const PARAGRAPH_CAP = EXCERPT_TARGET * 4;

/**
 * Extracts title, description, excerpt, favicon and og:type from an HTML
 * document. `pageUrl` is the final URL after redirects, used to resolve
 * relative links. htmlparser2 decodes entities in text and attributes.
 */
export function extractHtml(html: string, pageUrl: string): ExtractedHtml {
  const meta = new Map<string, string>();
  let title: string | null = null;
  let titleText = '';
  let inTitle = false;
  let svgDepth = 0;
  let baseHref = '';
  const icons: { rank: number; href: string }[] = [];

  let nonContentDepth = 0;
  const scopeDepth = { article: 0, main: 0 };
  let paragraph: { scope: 'article' | 'main' | 'body'; text: string } | null = null;
  const firstGood: Partial<Record<'article' | 'main' | 'body', string>> = {};
  let firstAny = '';

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'svg') svgDepth++;
        if (NON_CONTENT.has(name)) nonContentDepth++;
        if (name === 'article' || name === 'main') scopeDepth[name]++;

        // <title> inside inline SVG names the graphic, not the page.
        if (name === 'title' && title === null && svgDepth === 0) inTitle = true;
        else if (name === 'meta') {
          const key = (attribs.property ?? attribs.name ?? '').trim().toLowerCase();
          if (key !== '' && attribs.content !== undefined && !meta.has(key)) meta.set(key, attribs.content);
        } else if (name === 'link' && attribs.href?.trim()) {
          const rels = (attribs.rel ?? '').toLowerCase().split(/\s+/);
          // "shortcut icon" contains the "icon" token; "mask-icon" does not.
          const rank = rels.includes('icon')
            ? 0
            : rels.includes('apple-touch-icon') || rels.includes('apple-touch-icon-precomposed')
              ? 1
              : -1;
          if (rank >= 0) icons.push({ rank, href: attribs.href.trim() });
        } else if (name === 'base' && baseHref === '' && attribs.href) baseHref = attribs.href.trim();
        else if (name === 'p' && nonContentDepth === 0) {
          const scope = SCOPES.find((s) => scopeDepth[s] > 0) ?? 'body';
          paragraph = { scope, text: '' };
        }
      },
      ontext(text) {
        if (inTitle) titleText += text;
        else if (paragraph && nonContentDepth === 0 && paragraph.text.length < PARAGRAPH_CAP) paragraph.text += text;
      },
      onclosetag(name) {
        if (name === 'svg' && svgDepth > 0) svgDepth--;
        if (NON_CONTENT.has(name) && nonContentDepth > 0) nonContentDepth--;
        if ((name === 'article' || name === 'main') && scopeDepth[name] > 0) scopeDepth[name]--;
        if (name === 'title' && inTitle) {
          inTitle = false;
          title = titleText;
        } else if (name === 'p' && paragraph) {
          const text = collapse(paragraph.text);
          if (firstAny === '') firstAny = text;
          if (text.length >= EXCERPT_MIN && firstGood[paragraph.scope] === undefined) firstGood[paragraph.scope] = text;
          paragraph = null;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();

  const pick = (...candidates: (string | null | undefined)[]): string => {
    for (const c of candidates) {
      const text = collapse(c ?? '');
      if (text !== '') return text;
    }
    return '';
  };

  const base = absoluteHttpUrl(baseHref, pageUrl) ?? pageUrl;
  icons.sort((a, b) => a.rank - b.rank); // stable: document order within a rank
  let favicon = '';
  for (const icon of icons) {
    favicon = absoluteHttpUrl(icon.href, base) ?? '';
    if (favicon !== '') break;
  }
  if (favicon === '') favicon = defaultFavicon(pageUrl);

  return {
    title: clip(pick(meta.get('og:title'), title, meta.get('twitter:title')), TITLE_MAX),
    description: clip(
      pick(meta.get('og:description'), meta.get('description'), meta.get('twitter:description')),
      DESCRIPTION_MAX,
    ),
    excerpt: excerptOf(firstGood.article ?? firstGood.main ?? firstGood.body ?? firstAny),
    favicon,
    ogType: meta.get('og:type') ?? '',
  };
}

/** `${origin}/favicon.ico` for http(s) URLs, '' otherwise. */
export function defaultFavicon(pageUrl: string): string {
  try {
    const url = new URL(pageUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}/favicon.ico` : '';
  } catch {
    return '';
  }
}
