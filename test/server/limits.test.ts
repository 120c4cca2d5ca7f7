import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IpBlockEnvelope } from '../../lib/api/envelope.ts';
import { specLimits } from '../../server/limits/policy.ts';
import { expectError } from '../support/expect.ts';
import { apiFor, nextIp, onPostgresProject, startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(() => t.close());

const MINUTE = 60_000;

function expectNoRateHeaders(headers: Headers) {
  expect(headers.get('x-ratelimit-limit')).toBeNull();
  expect(headers.get('x-ratelimit-remaining')).toBeNull();
  expect(headers.get('x-ratelimit-reset')).toBeNull();
}

describe('per-user limits', () => {
  it('allows 120 requests a minute, then answers 429 until the window resets', async () => {
    const u = await t.user();
    const ips = [nextIp(), nextIp(), nextIp()];
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) => u.api('GET', '/auth/verify', { ip: ips[i % 3] })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const remaining = results.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => i));

    const limited = await u.api('GET', '/auth/verify', { ip: ips[0] });
    expect(expectError(limited, 429, 'RATE_LIMITED')).toBe('Rate limit exceeded');
    expect(limited.headers.get('x-ratelimit-limit')).toBe('120');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(limited.headers.get('x-ratelimit-reset'));
    expect(reset * 1000).toBeGreaterThan(t.server.deps.clock.now());
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    await t.advance(MINUTE);
    expect((await u.api('GET', '/auth/verify', { ip: ips[1] })).status).toBe(200);
  });

  it('counts each user separately', async () => {
    const a = await t.user();
    const b = await t.user();
    await Promise.all(Array.from({ length: 120 }, (_, i) => a.api('GET', '/auth/verify', { ip: `10.1.0.${i % 3}` })));
    expectError(await a.api('GET', '/auth/verify', { ip: '10.1.1.1' }), 429, 'RATE_LIMITED');
    expect((await b.api('GET', '/auth/verify')).status).toBe(200);
  });

  it('is exact under concurrent requests', async () => {
    const u = await t.user();
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) => u.api('GET', '/auth/verify', { ip: `10.2.0.${i % 3}` })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(120);
    expect(results.filter((r) => r.status === 429)).toHaveLength(30);
  });

  // The rule checked with a day's count of 410 (three minutes' full counts and 50): the spec's 10,000 took 84 minutes'
  // counts, 10,000 requests. Not again on the server-postgres project: its test servers count in the same memory store
  // as the server project's (a hosted instance counts in Redis: the server-redis project).
  it.skipIf(onPostgresProject)("allows the day's count of requests (the spec's 10,000), then answers 429 until the day has passed", async () => {
    expect(specLimits.userPerDay).toBe(10_000);
    const perDay = 3 * specLimits.userPerMinute + 50;
    const day = await startTestServer({}, { limitPolicy: { ...specLimits, userPerDay: perDay } });
    try {
      const u = await day.user();
      for (let minute = 0; minute * specLimits.userPerMinute < perDay; minute++) {
        const batch = Math.min(specLimits.userPerMinute, perDay - minute * specLimits.userPerMinute);
        const results = await Promise.all(
          Array.from({ length: batch }, (_, i) => u.api('GET', '/auth/verify', { ip: `10.3.${minute}.${i % 3}` })),
        );
        expect(results.every((r) => r.status === 200)).toBe(true);
        await day.advance(MINUTE);
      }
      const limited = await u.api('GET', '/auth/verify', { ip: '10.3.200.1' });
      expectError(limited, 429, 'RATE_LIMITED');
      // The day window is what binds now: its reset is nearly a day away, not a minute.
      const waitMs = Number(limited.headers.get('x-ratelimit-reset')) * 1000 - day.server.deps.clock.now();
      expect(waitMs).toBeGreaterThan(20 * 60 * MINUTE);
      await day.advance(24 * 60 * MINUTE);
      expect((await u.api('GET', '/auth/verify', { ip: '10.3.200.2' })).status).toBe(200);
    } finally {
      await day.close();
    }
  });
});

describe('gateway limit per IP', () => {
  it('allows 60 requests a minute from one address, whoever sends them, with only Retry-After on the 429', async () => {
    const ip = nextIp();
    const a = await t.user();
    const b = await t.user();
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).api('GET', '/auth/verify', { ip })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const limited = await a.api('GET', '/auth/verify', { ip });
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expectNoRateHeaders(limited.headers);
    expect((await a.api('GET', '/auth/verify', { ip: nextIp() })).status).toBe(200);
    await t.advance(MINUTE);
    expect((await a.api('GET', '/auth/verify', { ip })).status).toBe(200);
  });

  it('keys on the TCP peer unless the server trusts a proxy', async () => {
    const plain = await startTestServer({ proxyHops: 0 });
    try {
      const u = await plain.user();
      await Promise.all(Array.from({ length: 60 }, (_, i) => u.api('GET', '/auth/verify', { ip: `10.9.0.${i}` })));
      expectError(await u.api('GET', '/auth/verify', { ip: '10.9.1.1' }), 429, 'RATE_LIMITED');
    } finally {
      await plain.close();
    }
  });
});

describe('failed authentication', () => {
  it('blocks an address for 15 minutes after 5 rejected tokens in 5 minutes', async () => {
    const ip = nextIp();
    const anon = apiFor(t.baseUrl, { ip });
    for (let i = 0; i < 5; i++) expectError(await anon('GET', '/auth/verify', { token: `tok_${'0'.repeat(64)}` }), 401, 'INVALID_TOKEN');

    const u = await t.user();
    const blocked = await u.api('GET', '/auth/verify', { ip });
    expect(blocked.status).toBe(403);
    const body = IpBlockEnvelope.parse(blocked.body);
    expect(body.error).toMatch(/blocked|Try again/i);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expectNoRateHeaders(blocked.headers);

    expect((await u.api('GET', '/auth/verify')).status).toBe(200);
    await t.advance(15 * MINUTE);
    expect((await u.api('GET', '/auth/verify', { ip })).status).toBe(200);
  });

  it('forgets failures older than 5 minutes', async () => {
    const ip = nextIp();
    const anon = apiFor(t.baseUrl, { ip, token: `tok_${'1'.repeat(64)}` });
    for (let i = 0; i < 4; i++) expectError(await anon('GET', '/auth/verify'), 401, 'INVALID_TOKEN');
    await t.advance(5 * MINUTE + 1000);
    for (let i = 0; i < 4; i++) expectError(await anon('GET', '/auth/verify'), 401, 'INVALID_TOKEN');
    const u = await t.user();
    expect((await u.api('GET', '/auth/verify', { ip })).status).toBe(200);
  });

  it('counts revoked and expired tokens as failures too', async () => {
    const ip = nextIp();
    const revoked = await t.user();
    await t.server.deps.store.accounts.revokeToken(revoked.tokenId, t.server.deps.clock.now());
    for (let i = 0; i < 5; i++) expectError(await revoked.api('GET', '/auth/verify', { ip }), 401, 'TOKEN_REVOKED');
    expect((await revoked.api('GET', '/auth/verify', { ip })).status).toBe(403);
  });

  it('limits requests without a valid token to a bucket of 10 refilling at 30 a minute', async () => {
    const ip = nextIp();
    const anon = apiFor(t.baseUrl, { ip });
    // The fifth failure blocks the address before the bucket runs dry, so each block is lifted (as the admin command does).
    const lift = () => t.server.deps.limits.unblock(`block:${ip}`);
    for (let i = 0; i < 10; i++) {
      expectError(await anon('GET', '/auth/verify'), 401, 'MISSING_TOKEN');
      await lift();
    }
    const limited = await anon('GET', '/auth/verify');
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expectNoRateHeaders(limited.headers);

    const u = await t.user();
    expect((await u.api('GET', '/auth/verify', { ip })).status).toBe(200);
    await t.advance(2_000);
    expectError(await anon('GET', '/auth/verify'), 401, 'MISSING_TOKEN');
    await lift();
    expectError(await anon('GET', '/auth/verify'), 429, 'RATE_LIMITED');
  });
});
