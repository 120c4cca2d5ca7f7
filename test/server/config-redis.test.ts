import { describe, expect, it } from 'vitest';
import { parseServerConfig } from '../../server/config.ts';
import { startShelfServer } from '../support/server-bundle-global.ts';

describe('--redis and --job-lease-ms', () => {
  it('take the Redis URL from the flag, else REDIS_URL (empty: unset)', () => {
    expect(parseServerConfig([], {}).redisUrl).toBeNull();
    expect(parseServerConfig(['--redis', 'redis://a:6379'], {}).redisUrl).toBe('redis://a:6379');
    expect(parseServerConfig([], { REDIS_URL: 'rediss://:secret@b:6380/2' }).redisUrl).toBe('rediss://:secret@b:6380/2');
    expect(parseServerConfig(['--redis', 'redis://a:6379'], { REDIS_URL: 'redis://b:6379' }).redisUrl).toBe('redis://a:6379');
    expect(parseServerConfig([], { REDIS_URL: '' }).redisUrl).toBeNull();
  });

  it('refuse what is not a redis:// URL, naming the flag', () => {
    for (const bad of ['http://a:6379', 'a:6379', 'redis://']) {
      expect(() => parseServerConfig(['--redis', bad], {})).toThrow(/--redis must be a URL like redis:\/\/HOST:PORT/);
    }
    expect(() => parseServerConfig([], { REDIS_URL: 'localhost' })).toThrow(/--redis/);
  });

  it('lease jobs for 30 s unless told otherwise, within bounds', () => {
    expect(parseServerConfig([], {}).jobLeaseMs).toBe(30_000);
    expect(parseServerConfig(['--job-lease-ms', '2000'], {}).jobLeaseMs).toBe(2000);
    for (const bad of ['999', '3600001', '1.5', 'soon']) {
      expect(() => parseServerConfig(['--job-lease-ms', bad], {})).toThrow(/--job-lease-ms must be a whole number of ms from 1000 to 3600000/);
    }
  });

  it('will not start an instance that cannot reach its Redis, and says why without the password', async () => {
    const start = startShelfServer(['--port', '0', '--data', '/nonexistent/never-created', '--redis', 'redis://:hunter2@127.0.0.1:1']);
    await expect(start).rejects.toThrow(/exited \(code 1\)[\s\S]*could not connect to Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/?: connect ECONNREFUSED/);
    await expect(start).rejects.not.toThrow(/hunter2/);
  });
});
