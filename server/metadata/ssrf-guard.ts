/**
 * SSRF guard: decides whether the server may open a connection for a URL a
 * user gave it, and to which addresses.
 *
 * The guard resolves the host itself and hands back the validated addresses;
 * the fetcher must connect to those (via a pinned `lookup`) rather than resolve
 * again, otherwise a DNS-rebinding host could answer with a public address here
 * and a private one at connect time.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type GuardResult =
  | { ok: true; url: URL; addresses: ResolvedAddress[] }
  /** `refused`: policy said no (→ unchecked); `unresolvable`: DNS failed (→ unreachable). */
  | { ok: false; reason: 'refused' | 'unresolvable'; detail: string };

// ---------------------------------------------------------------------------
// Address classification (pure)

/** Strict dotted-decimal; anything looser is not trusted as an address. */
function parseIPv4(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

/** Eight 16-bit groups, or null. Accepts `::` compression and a dotted IPv4 tail. */
function parseIPv6(ip: string): number[] | null {
  let text = ip;
  let tail: number[] = [];
  if (text.includes('.')) {
    const lastColon = text.lastIndexOf(':');
    if (lastColon === -1) return null;
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (v4 === null) return null;
    tail = [Math.floor(v4 / 65536), v4 % 65536];
    text = text.slice(0, lastColon + 1);
    // "::ffff:" → "::ffff", but "::" (from "::1.2.3.4") must stay a compression.
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = toGroups(halves[0] ?? '');
  const rest = halves.length === 2 ? toGroups(halves[1] ?? '') : [];
  if (head === null || rest === null) return null;
  const explicit = head.length + rest.length + tail.length;
  if (halves.length === 2) {
    if (explicit > 7) return null;
    return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest, ...tail];
  }
  return explicit === 8 ? [...head, ...tail] : null;
}

// [network, prefix length] pairs. Everything here is unroutable on the public
// internet or reaches something other than an ordinary public host.
const BLOCKED_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", incl. 0.0.0.0 which connects to localhost
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT, often internal infrastructure
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking, used for internal test nets
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast 255.255.255.255
];

const BLOCKED_V4_RANGES = BLOCKED_V4.map(([net, bits]) => {
  const size = 2 ** (32 - bits);
  const start = parseIPv4(net) ?? 0;
  return { start, end: start + size - 1 };
});

function isPublicV4(value: number): boolean {
  return !BLOCKED_V4_RANGES.some((r) => value >= r.start && value <= r.end);
}

const v4From = (hi: number, lo: number): number => hi * 65536 + lo;

function isPublicV6(g: readonly number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;

  // Forms that embed an IPv4 address are judged by that address, since that
  // is where the packets end up.
  if (upperZero && g5 === 0xffff) return isPublicV4(v4From(g6, g7)); // ::ffff:a.b.c.d mapped
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isPublicV4(v4From(g6, g7)); // 64:ff9b::/96 well-known NAT64
  }
  if (g0 === 0x2002) return isPublicV4(v4From(g1, g2)); // 2002::/16 6to4

  // Only 2000::/3 is global unicast. This one test rejects ::, ::1, the
  // deprecated IPv4-compatible ::a.b.c.d, 100::/64 discard, fc00::/7 ULA,
  // fe80::/10 link-local, fec0::/10 site-local, ff00::/8 multicast and the
  // local-use NAT64 prefix 64:ff9b:1::/48.
  if ((g0 & 0xe000) !== 0x2000) return false;

  if (g0 === 0x2001 && g1 === 0) return false; // 2001::/32 Teredo: tunnels to an address we cannot vet
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // 2001:db8::/32 documentation
  if (g0 === 0x2001 && (g1 & 0xfff0) === 0x0010) return false; // 2001:10::/28 ORCHID
  if (g0 === 0x2001 && (g1 & 0xfff0) === 0x0020) return false; // 2001:20::/28 ORCHIDv2
  if (g0 === 0x2001 && g1 === 0x0002 && g2 === 0) return false; // 2001:2::/48 benchmarking
  return true;
}

/**
 * True only for an address that is safe for the server to connect to on a
 * user's behalf. Anything that is not a well-formed IPv4/IPv6 literal is
 * reported as not public, so callers fail closed. Brackets and an IPv6 zone
 * id (`fe80::1%eth0`) are tolerated.
 */
export function isPublicAddress(ip: string): boolean {
  let text = ip.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);

  const v4 = parseIPv4(text);
  if (v4 !== null) return isPublicV4(v4);
  if (!text.includes(':')) return false;
  const v6 = parseIPv6(text);
  return v6 !== null && isPublicV6(v6);
}

// ---------------------------------------------------------------------------
// URL check (resolves DNS)

/** Names that resolve to loopback by definition (RFC 6761), whatever DNS says. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

export const resolveHost: Resolver = async (hostname) => {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results
    .filter((r) => r.family === 4 || r.family === 6)
    .map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
};

/**
 * Validates a URL for fetching. Only http(s) is ever allowed. Unless
 * `allowPrivate`, the host must not be a localhost name and every address it
 * resolves to must be public: one bad address is enough to refuse, because the
 * connection could pick any of them.
 *
 * `resolve` is injectable so tests can simulate names that resolve to private
 * addresses without touching real DNS.
 */
export async function checkUrl(
  url: string | URL,
  allowPrivate: boolean,
  resolve: Resolver = resolveHost,
): Promise<GuardResult> {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return { ok: false, reason: 'refused', detail: 'invalid URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, reason: 'refused', detail: `scheme ${parsed.protocol} not allowed` };
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return { ok: false, reason: 'refused', detail: 'empty host' };

  if (!allowPrivate && isLocalhostName(host)) {
    return { ok: false, reason: 'refused', detail: `${host} is a localhost name` };
  }

  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch (err) {
      return { ok: false, reason: 'unresolvable', detail: err instanceof Error ? err.message : String(err) };
    }
    if (addresses.length === 0) return { ok: false, reason: 'unresolvable', detail: `${host} has no addresses` };
  }

  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) return { ok: false, reason: 'refused', detail: `${host} resolves to non-public ${bad.address}` };
  }
  return { ok: true, url: parsed, addresses };
}
