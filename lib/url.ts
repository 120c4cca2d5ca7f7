/**
 * URL normalisation shared by the server and the extension.
 *
 * `normaliseUrl` produces a comparison key, not a URL to navigate to: two
 * bookmarks whose keys are equal are treated as "the same page". It runs on
 * every save and over the extension's whole index, so it sticks to one
 * `new URL()` and plain string work.
 */

/**
 * Query parameters that only identify the click, campaign or recipient, never
 * the page. Any parameter starting with one of `TRACKING_PARAM_PREFIXES` is
 * also dropped. Matching is case-insensitive.
 *
 * Deliberately absent: generic names such as `ref`, `source`, `s` or `trk`,
 * which some sites use for real content (GitHub's `ref` selects a branch).
 */
export const TRACKING_PARAMS = [
  // Ad-network click ids
  'fbclid', // Meta
  'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'srsltid', // Google
  'msclkid', // Microsoft
  'yclid', // Yandex
  'twclid', // X / Twitter ads
  'ttclid', // TikTok
  'li_fat_id', // LinkedIn
  'igshid', // Instagram share id
  // Email / marketing automation
  'mc_cid', 'mc_eid', // Mailchimp
  '_hsenc', '_hsmi', // HubSpot
  'mkt_tok', // Marketo
  'vero_id', 'vero_conv', // Vero
  'oly_enc_id', 'oly_anon_id', // Omeda
  '_kx', // Klaviyo
  // Share / referral markers
  'ref_src', 'ref_url', // X / Twitter embeds
  // Google Analytics cross-domain linker
  '_ga', '_gl',
] as const;

export const TRACKING_PARAM_PREFIXES = ['utm_'] as const;

/**
 * Tracking parameters whose names are too generic to strip everywhere, so they
 * are stripped only on the hosts known to use them (host without `www.`).
 * `si` is YouTube's and Spotify's share id; elsewhere it may carry meaning.
 */
export const HOST_TRACKING_PARAMS = [
  { host: 'youtube.com', params: ['si', 'pp', 'feature'] },
  { host: 'm.youtube.com', params: ['si', 'pp', 'feature'] },
  { host: 'music.youtube.com', params: ['si', 'feature'] },
  { host: 'youtu.be', params: ['si', 'feature'] },
  { host: 'open.spotify.com', params: ['si'] },
] as const;

const TRACKING_SET: ReadonlySet<string> = new Set(TRACKING_PARAMS);
// A Map, not an object literal: hostnames such as `__proto__` are valid.
const HOST_TRACKING: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  HOST_TRACKING_PARAMS.map(({ host, params }) => [host, new Set<string>(params)]),
);

function isTrackingParam(key: string, host: string): boolean {
  const lower = key.toLowerCase();
  if (TRACKING_SET.has(lower)) return true;
  for (const prefix of TRACKING_PARAM_PREFIXES) if (lower.startsWith(prefix)) return true;
  return HOST_TRACKING.get(host)?.has(lower) ?? false;
}

function stripWww(hostname: string): string {
  // Guard the length so a bare host literally named "www." is left alone.
  return hostname.startsWith('www.') && hostname.length > 4 ? hostname.slice(4) : hostname;
}

/**
 * Drops tracking parameters and sorts the rest by key. Works on the raw
 * `a=b` pieces rather than URLSearchParams so that values keep the exact
 * encoding the page used (URLSearchParams would re-encode `/`, spaces, ...).
 * Array#sort is stable, so repeated keys keep their relative order, which
 * matters to servers that read `?id=2&id=1` as an ordered list.
 */
function normaliseQuery(search: string, host: string): string {
  if (search.length <= 1) return '';
  const kept: { key: string; piece: string }[] = [];
  for (const piece of search.slice(1).split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const key = eq === -1 ? piece : piece.slice(0, eq);
    if (isTrackingParam(key, host)) continue;
    kept.push({ key, piece });
  }
  if (kept.length === 0) return '';
  kept.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return `?${kept.map((p) => p.piece).join('&')}`;
}

/**
 * Key identifying "the same page". For http(s) URLs: no scheme (http and https
 * collide on purpose), host lowercased without `www.`, no default port, no
 * credentials, no fragment, no trailing slash, tracking parameters removed and
 * the remaining query sorted by key, e.g. `example.com/path?a=1&b=2`.
 *
 * Other schemes keep their scheme (so `ftp://x` never collides with `http://x`)
 * and only lose the fragment. Unparseable input comes back trimmed and
 * lowercased, so the function never throws.
 *
 * Hosts are kept in the form WHATWG URL gives them: IDNs as punycode,
 * IPv6 in brackets, numeric IPv4 forms canonicalised to dotted decimal.
 */
export function normaliseUrl(url: string): string {
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return trimmed.toLowerCase();
  }

  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    parsed.hash = '';
    return parsed.href;
  }

  // URL already lowercases the host and drops the port when it is the
  // scheme's default, so `http://x:443` keeps its (non-default) port.
  const host = stripWww(parsed.hostname);
  const port = parsed.port === '' ? '' : `:${parsed.port}`;
  const path = parsed.pathname.endsWith('/') ? parsed.pathname.slice(0, -1) : parsed.pathname;
  return `${host}${port}${path}${normaliseQuery(parsed.search, host)}`;
}

/** Hostname lowercased without a leading `www.`; '' when the URL does not parse. */
export function domainOf(url: string): string {
  try {
    return stripWww(new URL(url.trim()).hostname);
  } catch {
    return '';
  }
}
