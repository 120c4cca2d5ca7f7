import { type Awaitable, thenOrNow } from '../awaitable.ts';
import type { Clock } from '../clock.ts';
import { MINUTE } from '../clock.ts';
import type { LimitStore, WindowRule, WindowState } from './limit-store.ts';
import type { LimitPolicy } from './policy.ts';
import { WINDOWS } from './policy.ts';

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface UserVerdict {
  allowed: boolean;
  /** The X-RateLimit-* headers to send, whatever the verdict. */
  headers: Record<string, string>;
  retryAfterSeconds: number;
}

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
const ALLOWED: Verdict = Object.freeze({ allowed: true });
export const REMEMBERED_RULES = 10_000;

/**
 * Every limit of the spec, applied with one clock and one store. What each request
 * passes (gateway, block, user) answers at once when the store does (see Awaitable).
 */
export class Guards {
  /**
   * The rules every request of an address or a user passes, made once and reused:
   * no rule is made a request, and their keys are strings whose hash is already
   * known. Bounded: more is a flood of new addresses, and it starts over.
   */
  private byAddress = new Map<string, { gateway: WindowRule[]; block: string }>();
  private byUser = new Map<string, WindowRule[]>();

  constructor(
    private store: LimitStore,
    private policy: LimitPolicy,
    private clock: Clock,
  ) {}

  /** Addresses and users whose rules are remembered now (for the tests of its bounds). */
  get rememberedRules(): number {
    return this.byAddress.size + this.byUser.size;
  }

  gateway(ip: string): Awaitable<Verdict> {
    const now = this.clock.now();
    return thenOrNow(this.store.consume(this.addressRules(ip).gateway, now), (r) =>
      r.allowed ? ALLOWED : { allowed: false, retryAfterSeconds: seconds(r.windows[0]!.resetAt - now) },
    );
  }

  ipBlock(ip: string): Awaitable<Verdict> {
    const now = this.clock.now();
    return thenOrNow(this.store.blockedUntil(this.addressRules(ip).block, now), (until) =>
      until === null ? ALLOWED : { allowed: false, retryAfterSeconds: seconds(until - now) },
    );
  }

  /** Requests without a valid token draw from this bucket; valid-token traffic never does. */
  async failedAuthBucket(ip: string): Promise<Verdict> {
    const { failedAuthCapacity, failedAuthRefillPerMinute } = this.policy;
    const r = await this.store.takeToken(`fab:${ip}`, failedAuthCapacity, failedAuthRefillPerMinute / MINUTE, this.clock.now());
    return r.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: seconds(r.retryAfterMs) };
  }

  /** Counts an authentication failure; the fifth within the window blocks the address. */
  async recordAuthFailure(ip: string): Promise<void> {
    const now = this.clock.now();
    const failures = await this.store.recordFailure(`fail:${ip}`, this.policy.failureWindowMs, now);
    if (failures >= this.policy.blockAfterFailures) await this.store.block(`block:${ip}`, now + this.policy.blockMs);
  }

  user(userId: string): Awaitable<UserVerdict> {
    const now = this.clock.now();
    return thenOrNow(this.store.consume(this.userRules(userId), now), ({ allowed, windows }) => {
      const [minute, day] = windows as [WindowState, WindowState];
      // When the day is used up the minute window is not what the client must wait for.
      const binding = day.remaining === 0 && !allowed ? day : minute;
      return {
        allowed,
        headers: rateHeaders(this.policy.userPerMinute, binding.remaining, binding.resetAt),
        retryAfterSeconds: seconds(binding.resetAt - now),
      };
    });
  }

  private addressRules(ip: string): { gateway: WindowRule[]; block: string } {
    let rules = this.byAddress.get(ip);
    if (rules === undefined) {
      if (this.byAddress.size >= REMEMBERED_RULES) this.byAddress.clear();
      rules = { gateway: [{ key: `gw:${ip}`, limit: this.policy.gatewayPerMinute, windowMs: MINUTE }], block: `block:${ip}` };
      this.byAddress.set(ip, rules);
    }
    return rules;
  }

  private userRules(userId: string): WindowRule[] {
    let rules = this.byUser.get(userId);
    if (rules === undefined) {
      if (this.byUser.size >= REMEMBERED_RULES) this.byUser.clear();
      rules = [
        { key: `min:${userId}`, limit: this.policy.userPerMinute, windowMs: WINDOWS.minute },
        { key: `day:${userId}`, limit: this.policy.userPerDay, windowMs: WINDOWS.day },
      ];
      this.byUser.set(userId, rules);
    }
    return rules;
  }

  async heavy(userId: string, route: string): Promise<UserVerdict> {
    const now = this.clock.now();
    const { allowed, windows } = await this.store.consume(
      [{ key: `heavy:${userId}:${route}`, limit: this.policy.heavyPerMinute, windowMs: WINDOWS.minute }],
      now,
    );
    const w = windows[0]!;
    return {
      allowed,
      headers: rateHeaders(this.policy.heavyPerMinute, w.remaining, w.resetAt),
      retryAfterSeconds: seconds(w.resetAt - now),
    };
  }
}

function rateHeaders(limit: number, remaining: number, resetAt: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
  };
}
