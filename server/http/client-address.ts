import { isIP } from 'node:net';

/**
 * One spelling per address, so that a block or a limit on `::ffff:10.0.0.1` is
 * the one on `10.0.0.1`, and `::0001` is `::1`; null when `raw` is no IP address.
 */
export function canonicalAddress(raw: string): string | null {
  const address = raw.trim();
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return null;
  let host: string;
  try {
    host = new URL(`http://[${address}]`).hostname.slice(1, -1);
  } catch {
    return address.toLowerCase(); // a zone id (fe80::1%eth0), which URLs do not take
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return host;
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The address the per-IP limits key on. Without trusted proxies: the TCP peer.
 * Behind `hops` trusted proxies, each appending the address it saw to
 * X-Forwarded-For: the entry `hops` from the right, the one the outermost trusted
 * proxy wrote. Entries left of it are the client's own word, so never used. A
 * header too short or not an address there means the request did not come the
 * expected way: the peer it is.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, hops: number): string {
  const canonicalPeer = canonicalAddress(peer) ?? peer;
  if (hops === 0 || forwardedFor === undefined) return canonicalPeer;
  const entries = forwardedFor.split(',');
  const entry = entries.length >= hops ? entries[entries.length - hops]! : '';
  return canonicalAddress(entry) ?? canonicalPeer;
}

/** The eight 16-bit groups of a canonical IPv6 address (no zone id). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** IPv6 groups in their compressed form (the longest run of two or more zero groups as ::), as URLs spell them. */
function ipv6Text(groups: readonly number[]): string {
  return new URL(`http://[${groups.map((g) => g.toString(16)).join(':')}]`).hostname.slice(1, -1);
}

/**
 * What the per-address limits and blocks key on: an IPv4 address as it is, an IPv6 one as its
 * network of `ipv6Prefix` bits (`2001:db8:1:2::/64`), since one subscriber is usually given a
 * whole /64 and can rotate through it at will. 128 keys on the whole address. An address that
 * is no IP (a zone id, `unknown`) is its own key.
 */
export function limitKeyAddress(address: string, ipv6Prefix: number): string {
  if (ipv6Prefix >= 128 || isIP(address) !== 6) return address;
  const groups = ipv6Groups(address).map((group, i) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - 16 * i));
    return bits === 0 ? 0 : group & (0xffff << (16 - bits)) & 0xffff;
  });
  return `${ipv6Text(groups)}/${ipv6Prefix}`;
}

/**
 * An address or a network as the admin command is given it (`10.0.0.1`, `2001:DB8::5`,
 * `2001:db8:1:2::/64`), in the spelling of limitKeyAddress; null when it is neither.
 */
export function canonicalAddressOrNetwork(raw: string): string | null {
  const [address = '', prefix, ...rest] = raw.trim().split('/');
  if (rest.length > 0) return null;
  const canonical = canonicalAddress(address);
  if (prefix === undefined || canonical === null) return canonical;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  if (isIP(canonical) !== 6 || !(bits >= 1 && bits <= 128)) return null;
  return limitKeyAddress(canonical, bits);
}

/** Whether a key of limitKeyAddress (an address, or an IPv6 network) covers `address` (canonical). */
export function keyCovers(key: string, address: string): boolean {
  const prefix = key.split('/')[1];
  return prefix === undefined ? key === address : limitKeyAddress(address, Number(prefix)) === key;
}
