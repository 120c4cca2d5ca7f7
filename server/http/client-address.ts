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
