import { Redis } from 'ioredis';
import { BackendUnavailable } from '../backend-unavailable.ts';

/**
 * How long a command, or a connection attempt, may take before the request fails: a dead
 * or frozen Redis answers 503 within this, not after ioredis's reconnection attempts.
 */
export const REDIS_TIMEOUT_MS = 1000;
/** The longest pause between reconnection attempts: a restarted Redis is used again within it. */
const LONGEST_RECONNECT_PAUSE_MS = 500;

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
 * a command fails at once while the connection is down (no offline queue, no retry of a
 * command cut off) and after REDIS_TIMEOUT_MS when Redis does not answer: the request
 * answers 503 rather than waiting, and the client keeps reconnecting in the background.
 */
export async function openRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_TIMEOUT_MS,
    connectTimeout: REDIS_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, LONGEST_RECONNECT_PAUSE_MS),
  });
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

/**
 * A Redis command's answer, or BackendUnavailable when Redis could not be reached in time
 * (a reply error, such as a script's, is a fault of ours and stays one).
 */
export async function fromRedis<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (err) {
    throw err instanceof Error && err.name === 'ReplyError' ? err : new BackendUnavailable('Redis', err);
  }
}
