import { beforeEach, describe, expect, it } from 'vitest';
import { Clock } from '../../server/clock.ts';
import { Guards, REMEMBERED_RULES } from '../../server/limits/guards.ts';
import { MemoryLimitStore } from '../../server/limits/memory-limit-store.ts';
import { specLimits } from '../../server/limits/policy.ts';
import type { Store } from '../../server/store/store.ts';
import { tempSqliteStore } from '../support/temp-store.ts';

/**
 * The guards make each address's and each user's rules once and reuse them: the
 * count itself stays in the limit store, so forgetting the rules (past their bound)
 * must change no verdict.
 */
const temp = tempSqliteStore('shelf-guards-');
let store: Store;
let guards: Guards;
beforeEach(() => {
  store = temp.store();
  guards = new Guards(new MemoryLimitStore(store.blocks), { ...specLimits, gatewayPerMinute: 3, userPerMinute: 2 }, new Clock());
});

const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

describe('the rules remembered per address and per user', () => {
  it('stay within their bound, and a window counts on after they were forgotten', async () => {
    for (let i = 0; i < 3; i++) expect((await guards.gateway('203.0.113.1')).allowed).toBe(true);
    expect((await guards.user('usr_kept')).allowed).toBe(true);
    for (let i = 0; i < REMEMBERED_RULES + 10; i++) {
      await guards.gateway(address(i));
      expect(guards.rememberedRules).toBeLessThanOrEqual(REMEMBERED_RULES + 1);
    }
    expect((await guards.gateway('203.0.113.1')).allowed).toBe(false);
    expect((await guards.user('usr_kept')).allowed).toBe(true);
    const third = await guards.user('usr_kept');
    expect(third.allowed).toBe(false);
    expect(third.headers['X-RateLimit-Remaining']).toBe('0');
  });

  it('keep each address and user apart', async () => {
    for (let i = 0; i < 3; i++) await guards.gateway('203.0.113.1');
    expect((await guards.gateway('203.0.113.2')).allowed).toBe(true);
    expect((await guards.user('usr_a')).headers['X-RateLimit-Remaining']).toBe('1');
    expect((await guards.user('usr_b')).headers['X-RateLimit-Remaining']).toBe('1');
    await store.blocks.block('block:203.0.113.3', Date.now() + 60_000);
    expect((await guards.ipBlock('203.0.113.3')).allowed).toBe(false);
    expect((await guards.ipBlock('203.0.113.4')).allowed).toBe(true);
  });
});
