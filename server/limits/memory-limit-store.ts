import type { Awaitable } from '../awaitable.ts';
import type { BlocksStore } from '../store/blocks.ts';
import type { ConsumeResult, LimitStore, WindowRule, WindowState } from './limit-store.ts';

interface Window {
  start: number;
  count: number;
  windowMs: number;
}

const SWEEP_EVERY = 10_000;

/**
 * Process-local limit state, but for IP blocks: those live in the database
 * (BlocksStore), so that they survive a restart and the admin command can lift
 * them; read on every check, a lift counts from the next request on.
 * Windows start at their first request and last windowMs.
 */
export class MemoryLimitStore implements LimitStore {
  private windows = new Map<string, Window>();
  private buckets = new Map<string, { tokens: number; at: number }>();
  private failures = new Map<string, number[]>();
  private writes = 0;

  constructor(private blocks: BlocksStore) {}

  // Loops rather than map/every with closures: this runs twice for every request. Synchronous, as all that needs no database.
  consume(rules: WindowRule[], now: number): ConsumeResult {
    const current: Window[] = [];
    let allowed = true;
    for (const rule of rules) {
      const w = this.window(rule, now);
      current.push(w);
      if (w.count >= rule.limit) allowed = false;
    }
    const windows: WindowState[] = [];
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      const w = current[i]!;
      if (allowed) w.count += 1;
      windows.push({ rule, remaining: Math.max(0, rule.limit - w.count), resetAt: w.start + w.windowMs });
    }
    return { allowed, windows };
  }

  takeToken(key: string, capacity: number, refillPerMs: number, now: number) {
    const bucket = this.buckets.get(key) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * refillPerMs);
    bucket.at = now;
    this.buckets.set(key, bucket);
    this.sweep(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterMs: 0 };
    }
    return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / refillPerMs) };
  }

  recordFailure(key: string, windowMs: number, now: number): number {
    const recent = (this.failures.get(key) ?? []).filter((t) => t > now - windowMs);
    recent.push(now);
    this.failures.set(key, recent);
    return recent.length;
  }

  block(key: string, until: number): Promise<void> {
    return this.blocks.block(key, until);
  }

  blockedUntil(key: string, now: number): Awaitable<number | null> {
    return this.blocks.blockedUntil(key, now);
  }

  unblock(key: string): Promise<boolean> {
    return this.blocks.unblock(key);
  }

  listBlocks(now: number): Promise<Array<{ key: string; until: number }>> {
    return this.blocks.list(now);
  }

  private window(rule: WindowRule, now: number): Window {
    let w = this.windows.get(rule.key);
    if (!w || now >= w.start + w.windowMs) {
      w = { start: now, count: 0, windowMs: rule.windowMs };
      this.windows.set(rule.key, w);
      this.sweep(now);
    }
    return w;
  }

  /** Drops expired entries now and then, so that the maps stay as large as the active clients. */
  private sweep(now: number): void {
    if (++this.writes % SWEEP_EVERY !== 0) return;
    for (const [k, w] of this.windows) if (now >= w.start + w.windowMs) this.windows.delete(k);
    for (const [k, times] of this.failures) if (times.every((t) => t < now - 15 * 60_000)) this.failures.delete(k);
    for (const [k, b] of this.buckets) if (now - b.at > 60 * 60_000) this.buckets.delete(k);
  }
}
