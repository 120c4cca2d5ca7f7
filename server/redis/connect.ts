import { Redis } from 'ioredis';

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

/**
 * Connects to the Redis that the instances share, or fails with a clear message: an
 * instance that cannot reach it must not start with limits of its own. Once connected,
 * a command waits through at most two reconnection attempts, then fails (the request
 * answers 500) rather than hanging while Redis is away.
 */
export async function openRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  let connected = false;
  // The first failure says why (ECONNREFUSED ...); connect() itself only says the connection closed.
  let firstError: Error | undefined;
  redis.on('error', (err: Error) => {
    if (connected) console.error(`shelf server: Redis at ${redactUrl(url)}: ${err.message}`);
    else firstError ??= err;
  });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(`could not connect to Redis at ${redactUrl(url)}: ${(firstError ?? (err as Error)).message}`);
  }
  connected = true;
  return redis;
}
