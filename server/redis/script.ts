import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { fromRedis } from './connect.ts';

/**
 * A Lua script run by its SHA-1 (one round trip), sent in full only when this Redis
 * does not know it yet (first use, or after a restart emptied its script cache).
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await fromRedis(redis.evalsha(this.sha, keys.length, ...keys, ...args));
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
      return fromRedis(redis.eval(this.source, keys.length, ...keys, ...args));
    }
  }
}
