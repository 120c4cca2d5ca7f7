import type { Redis } from 'ioredis';
import type { SharedOffset } from '../clock.ts';
import { fromRedis } from './connect.ts';

/** The test clock's offset as one Redis value, so that POST /__test__/clock on one instance moves all. */
export class RedisClockOffset implements SharedOffset {
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    prefix = 'shelf:',
  ) {
    this.key = `${prefix}clock-offset`;
  }

  async read(): Promise<number> {
    return Number((await fromRedis(this.redis.get(this.key))) ?? 0);
  }

  async add(ms: number): Promise<number> {
    return Number(await fromRedis(this.redis.incrbyfloat(this.key, ms)));
  }
}
