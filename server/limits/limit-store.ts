import type { Awaitable } from '../awaitable.ts';

/**
 * The state behind every rate limit, behind one small interface so that a
 * shared store (Redis, for several server instances) can replace the in-memory one.
 * Each call is atomic: it checks and counts in one step.
 */
export interface WindowRule {
  key: string;
  limit: number;
  windowMs: number;
}

export interface WindowState {
  rule: WindowRule;
  remaining: number;
  resetAt: number;
}

export interface ConsumeResult {
  allowed: boolean;
  /** After counting (or, when refused, as they stood): one entry per rule, in order. */
  windows: WindowState[];
}

export interface LimitStore {
  /** Counts one request against every fixed window, only when all of them have room. */
  consume(rules: WindowRule[], now: number): Awaitable<ConsumeResult>;
  /** Takes one token from a bucket; answers how long until a token is there when empty. */
  takeToken(key: string, capacity: number, refillPerMs: number, now: number): Awaitable<{ allowed: boolean; retryAfterMs: number }>;
  /** Records a failure and answers how many fell within the window, this one included. */
  recordFailure(key: string, windowMs: number, now: number): Awaitable<number>;
  block(key: string, until: number): Promise<void>;
  blockedUntil(key: string, now: number): Awaitable<number | null>;
  /** Lifts a block before its time (the admin command). Answers whether there was one. */
  unblock(key: string): Promise<boolean>;
  /** The blocks in force at `now`. */
  listBlocks(now: number): Promise<Array<{ key: string; until: number }>>;
}
