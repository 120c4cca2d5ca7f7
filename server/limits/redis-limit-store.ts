import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { fromRedis } from '../redis/connect.ts';
import { LuaScript } from '../redis/script.ts';
import type { ConsumeResult, LimitStore, WindowRule } from './limit-store.ts';

/**
 * Fixed windows, all checked before any is counted. KEYS: one per rule; ARGV: now, then
 * limit and window length per rule. Answers allowed, then count and start per rule.
 */
const CONSUME = new LuaScript(`
local now = tonumber(ARGV[1])
local starts, counts, allowed = {}, {}, 1
for i = 1, #KEYS do
  local limit, win = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local w = redis.call('HMGET', KEYS[i], 's', 'c')
  local s, c = tonumber(w[1]), tonumber(w[2])
  if s == nil or now >= s + win then s, c = now, 0 end
  starts[i], counts[i] = s, c
  if c >= limit then allowed = 0 end
end
local out = { allowed }
for i = 1, #KEYS do
  if allowed == 1 then
    counts[i] = counts[i] + 1
    redis.call('HSET', KEYS[i], 's', starts[i], 'c', counts[i])
    redis.call('PEXPIRE', KEYS[i], math.max(1, starts[i] + tonumber(ARGV[2 * i + 1]) - now))
  end
  table.insert(out, counts[i])
  table.insert(out, starts[i])
end
return out
`);

/** A token bucket. ARGV: capacity, refill per ms, now. Answers allowed and the wait in ms. */
const TAKE_TOKEN = new LuaScript(`
local cap, rate, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens, at = tonumber(b[1]), tonumber(b[2])
if tokens == nil then tokens, at = cap, now end
tokens = math.min(cap, tokens + (now - at) * rate)
local allowed, wait = 0, 0
if tokens >= 1 then tokens, allowed = tokens - 1, 1 else wait = math.ceil((1 - tokens) / rate) end
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'at', now)
-- A bucket gone is a full bucket: it may go once it would have refilled.
redis.call('PEXPIRE', KEYS[1], math.ceil((cap - tokens) / rate) + 1)
return { allowed, wait }
`);

/** Failures as a sorted set by time. ARGV: now, window, a unique member. Answers how many fall in the window. */
const RECORD_FAILURE = new LuaScript(`
local now, win = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - win)
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], win)
return redis.call('ZCARD', KEYS[1])
`);

const Numbers = z.array(z.number().int());

/**
 * Limit state in the Redis that every instance shares: 120 a minute means 120 across
 * them all, and a block made by one holds on all. Each check-and-count is one Lua script,
 * so it is atomic and one round trip.
 *
 * Times are the server clock's (the test clock may be ahead of the real one), in whole ms:
 * Lua answers integers. Keys expire on Redis's real clock after at most as long as their
 * rule needs, which is never too early: the test clock only moves ahead.
 */
export class RedisLimitStore implements LimitStore {
  private readonly blocks: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'shelf:',
  ) {
    this.blocks = `${prefix}blocks`;
  }

  async consume(rules: WindowRule[], now: number): Promise<ConsumeResult> {
    const at = Math.floor(now);
    const args = [at, ...rules.flatMap((rule) => [rule.limit, rule.windowMs])];
    const [allowed, ...windows] = Numbers.parse(await CONSUME.run(this.redis, rules.map((rule) => this.key(rule.key)), args));
    return {
      allowed: allowed === 1,
      windows: rules.map((rule, i) => ({
        rule,
        remaining: Math.max(0, rule.limit - windows[2 * i]!),
        resetAt: windows[2 * i + 1]! + rule.windowMs,
      })),
    };
  }

  async takeToken(key: string, capacity: number, refillPerMs: number, now: number) {
    const reply = await TAKE_TOKEN.run(this.redis, [this.key(key)], [capacity, refillPerMs, Math.floor(now)]);
    const [allowed, retryAfterMs] = Numbers.length(2).parse(reply);
    return { allowed: allowed === 1, retryAfterMs: retryAfterMs! };
  }

  async recordFailure(key: string, windowMs: number, now: number): Promise<number> {
    const member = randomBytes(8).toString('hex');
    return z.number().int().parse(await RECORD_FAILURE.run(this.redis, [this.key(key)], [Math.floor(now), windowMs, member]));
  }

  /** Blocks are one sorted set scored by their end, so that listing them needs no scan of the keyspace. */
  async block(key: string, until: number): Promise<void> {
    // Blocks that ended by Redis's real clock have ended by the server's too (it is never behind).
    await fromRedis(this.redis.multi().zadd(this.blocks, until, key).zremrangebyscore(this.blocks, '-inf', `(${Date.now()}`).exec());
  }

  async blockedUntil(key: string, now: number): Promise<number | null> {
    const score = await fromRedis(this.redis.zscore(this.blocks, key));
    if (score === null) return null;
    const until = Number(score);
    return until > now ? until : null;
  }

  async unblock(key: string): Promise<boolean> {
    return (await fromRedis(this.redis.zrem(this.blocks, key))) > 0;
  }

  /** Soonest to end first. */
  async listBlocks(now: number): Promise<Array<{ key: string; until: number }>> {
    const flat = await fromRedis(this.redis.zrangebyscore(this.blocks, `(${now}`, '+inf', 'WITHSCORES'));
    const blocks: Array<{ key: string; until: number }> = [];
    for (let i = 0; i < flat.length; i += 2) blocks.push({ key: flat[i]!, until: Number(flat[i + 1]) });
    return blocks;
  }

  private key(key: string): string {
    return `${this.prefix}limit:${key}`;
  }
}
