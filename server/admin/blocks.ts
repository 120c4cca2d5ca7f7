import { iso } from '../clock.ts';
import { canonicalAddressOrNetwork, keyCovers } from '../http/client-address.ts';
import type { LimitStore } from '../limits/limit-store.ts';
import { UsageError } from './usage-error.ts';

/** The IP-block commands of the admin command; the server sees a lift on its very next request. */
export const BLOCK_USAGE = `  block list
  block lift --ip ADDRESS`;

const PREFIX = 'block:';

export async function runBlockCommand(
  limits: LimitStore,
  command: 'list' | 'lift',
  ip: string | undefined,
  now: number,
): Promise<object> {
  if (command === 'list') {
    const blocks = await limits.listBlocks(now);
    return { blocks: blocks.map(({ key, until }) => ({ ip: key.slice(PREFIX.length), until: iso(until) })) };
  }
  if (ip === undefined || ip.trim() === '') throw new UsageError('--ip is required');
  const address = canonicalAddressOrNetwork(ip);
  if (address === null) throw new UsageError(`--ip must be an IPv4 or IPv6 address (or an IPv6 network as block list shows it), got ${ip}`);
  if (await limits.unblock(PREFIX + address)) return { ip: address, lifted: true };
  // An IPv6 client is blocked as its network (--ipv6-prefix): its own address lifts the block that covers it.
  const covering = (await limits.listBlocks(now)).map(({ key }) => key.slice(PREFIX.length)).filter((network) => keyCovers(network, address));
  for (const network of covering) await limits.unblock(PREFIX + network);
  if (covering.length === 0) throw new UsageError(`no block on ${address} (block list shows the blocks in force)`);
  return { ip: covering.join(', '), lifted: true };
}
