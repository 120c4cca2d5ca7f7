import { iso } from '../clock.ts';
import { canonicalAddress } from '../http/client-address.ts';
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
  const address = canonicalAddress(ip);
  if (address === null) throw new UsageError(`--ip must be an IPv4 or IPv6 address, got ${ip}`);
  if (!(await limits.unblock(PREFIX + address))) throw new UsageError(`no block on ${address} (block list shows the blocks in force)`);
  return { ip: address, lifted: true };
}
