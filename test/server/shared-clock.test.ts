import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../server/clock.ts';
import { RedisClockOffset } from '../../server/redis/clock-offset.ts';
import { openRedis } from '../../server/redis/connect.ts';
import { type TestRedis, startRedis } from '../support/redis.ts';

let server: TestRedis;
let a: Redis;
let b: Redis;
beforeAll(async () => {
  server = await startRedis();
  [a, b] = await Promise.all([openRedis(server.url), openRedis(server.url)]);
});
afterAll(async () => {
  await Promise.all([a?.quit(), b?.quit()]);
  await server?.stop();
});

const HOUR = 3_600_000;
/** Within a second of the expected time: real time passes while the test runs. */
const near = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThan(1000);

describe('the test clock shared through Redis', () => {
  it('moves every instance once they sync, keeps an instance\'s own moves, and never goes back', async () => {
    const first = new Clock(new RedisClockOffset(a, 'c1:'));
    const second = new Clock(new RedisClockOffset(b, 'c1:'));
    near(await first.advanceAll(HOUR), Date.now() + HOUR);
    near(second.now(), Date.now()); // not until it syncs
    await second.sync();
    near(second.now(), Date.now() + HOUR);

    second.advance(HOUR); // this process alone
    await second.sync();
    near(second.now(), Date.now() + 2 * HOUR);
    await first.sync();
    near(first.now(), Date.now() + HOUR);

    await a.del('c1:clock-offset'); // Redis lost it (a restart without persistence)
    await first.sync();
    near(first.now(), Date.now() + HOUR);
  });

  it('moves only its own process without a shared offset', async () => {
    const alone = new Clock();
    near(await alone.advanceAll(HOUR), Date.now() + HOUR);
    await alone.sync();
    near(alone.now(), Date.now() + HOUR);
  });
});
