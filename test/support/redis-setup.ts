import { afterAll, beforeAll } from 'vitest';
import { type TestRedis, startRedis } from './redis.ts';

/**
 * Setup file of the `server-redis` project: each test file gets a redis-server of its own,
 * which every test server it starts uses (see startTestServer), so that the same tests
 * check the limits, blocks and test clock kept in Redis.
 */
let redis: TestRedis | undefined;

beforeAll(async () => {
  redis = await startRedis();
  process.env.SHELF_TEST_REDIS_URL = redis.url;
});

afterAll(async () => {
  delete process.env.SHELF_TEST_REDIS_URL;
  await redis?.stop();
});
