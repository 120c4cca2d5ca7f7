import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IpBlockEnvelope } from '../../lib/api/envelope.ts';
import { AUTHENTICATION_FAILURES, type AuthenticationFailure } from '../../lib/api/error-codes.ts';
import { errorStatus } from '../../lib/api/errors.ts';
import { parseServerConfig } from '../../server/config.ts';
import { canonicalAddressOrNetwork, clientAddress, limitKeyAddress } from '../../server/http/client-address.ts';
import { runAdmin, runAdminInProcess } from '../support/admin-command.ts';
import { expectError } from '../support/expect.ts';
import { type Api, type TestServer, apiFor, nextIp, onPostgresProject, startTestServer } from '../support/server.ts';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(() => t.close());

const BAD_TOKEN = `tok_${'0'.repeat(64)}`;

async function expectBlocked(ip: string): Promise<void> {
  const u = await t.user();
  const res = await u.api('GET', '/auth/verify', { ip });
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  IpBlockEnvelope.parse(res.body);
}

/** A request from `ip` that each authentication failure of the spec answers. */
async function failing(code: AuthenticationFailure): Promise<(ip: string) => ReturnType<Api>> {
  switch (code) {
    case 'MISSING_TOKEN':
      return (ip) => apiFor(t.baseUrl, { ip })('GET', '/auth/verify');
    case 'INVALID_TOKEN':
      return (ip) => apiFor(t.baseUrl, { ip, token: BAD_TOKEN })('GET', '/auth/verify');
    case 'TOKEN_REVOKED': {
      const u = await t.user();
      await t.server.deps.store.accounts.revokeToken(u.tokenId, t.server.deps.clock.now());
      return (ip) => u.api('GET', '/auth/verify', { ip });
    }
    case 'TOKEN_EXPIRED': {
      const u = await t.user({ expiresAt: t.server.deps.clock.now() - 1 });
      return (ip) => u.api('GET', '/auth/verify', { ip });
    }
    case 'SCOPE_REQUIRED': {
      const u = await t.user({ scopes: ['tags:read'] });
      return (ip) => u.api('GET', '/bookmarks', { ip });
    }
    case 'API_ACCESS_PRO_REQUIRED': {
      const u = await t.user({ plan: 'free' });
      return (ip) => u.api('GET', '/auth/verify', { ip });
    }
  }
}

describe('the IP block counts every authentication failure of the spec', () => {
  it.each(AUTHENTICATION_FAILURES.map((code) => [code]))('five %s answers block the address', async (code) => {
    const request = await failing(code);
    const ip = nextIp();
    for (let i = 0; i < 4; i++) expectError(await request(ip), errorStatus[code], code);
    const u = await t.user();
    expect((await u.api('GET', '/auth/verify', { ip })).status).toBe(200);
    expectError(await request(ip), errorStatus[code], code);
    await expectBlocked(ip);
  });

  it('mixes them: the failures of one address add up whatever refused them', async () => {
    const ip = nextIp();
    for (const code of AUTHENTICATION_FAILURES.slice(1)) expectError(await (await failing(code))(ip), errorStatus[code], code);
    await expectBlocked(ip);
  });

  it('spares valid-token traffic the failed-auth bucket: scope and plan refusals and accepted requests take nothing from it', async () => {
    const ip = nextIp();
    const lift = () => t.server.deps.limits.unblock(`block:${ip}`);
    const ok = await t.user();
    const badToken = apiFor(t.baseUrl, { ip, token: BAD_TOKEN });
    const scopeRefused = await failing('SCOPE_REQUIRED');
    const planRefused = await failing('API_ACCESS_PRO_REQUIRED');
    for (let i = 0; i < 20; i++) expect((await ok.api('GET', '/auth/verify', { ip })).status).toBe(200);
    expectError(await scopeRefused(ip), 403, 'SCOPE_REQUIRED');
    expectError(await planRefused(ip), 403, 'API_ACCESS_PRO_REQUIRED');
    // Two failures so far, none from the bucket: it still holds 10 for rejected tokens.
    for (let i = 0; i < 10; i++) {
      expectError(await badToken('GET', '/auth/verify'), 401, 'INVALID_TOKEN');
      if (i >= 2) {
        expect((await badToken('GET', '/auth/verify')).status).toBe(403);
        expect(await lift()).toBe(true);
      }
    }
    const limited = await badToken('GET', '/auth/verify');
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('keeps a block across a restart of the server', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'shelf-block-'));
    const ip = nextIp();
    try {
      const first = await startTestServer({ dataDir });
      const anon = (s: TestServer) => apiFor(s.baseUrl, { ip, token: BAD_TOKEN })('GET', '/auth/verify');
      for (let i = 0; i < 5; i++) expectError(await anon(first), 401, 'INVALID_TOKEN');
      expect((await anon(first)).status).toBe(403);
      await first.close();

      const second = await startTestServer({ dataDir, databaseUrl: first.server.deps.config.databaseUrl });
      try {
        const res = await anon(second);
        expect(res.status).toBe(403);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
        await second.advance(15 * 60_000);
        expectError(await anon(second), 401, 'INVALID_TOKEN');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('behind trusted proxies, the client cannot choose its address', () => {
  it('blocks 20 bad tokens that each claim a fresh address left of the one the proxy added', async () => {
    const client = nextIp();
    const anon = apiFor(t.baseUrl, { token: BAD_TOKEN });
    const answers: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await anon('GET', '/auth/verify', { headers: { 'X-Forwarded-For': `198.51.100.${i + 1}, ${client}` } });
      answers.push(res.status);
    }
    expect(answers).toEqual([...Array(5).fill(401), ...Array(15).fill(403)]);
    await expectBlocked(client);
    expect((await (await t.user()).api('GET', '/auth/verify', { ip: '198.51.100.1' })).status).toBe(200);
  });

  it('with --trust-proxy-hops 2 takes the second address from the right', async () => {
    const two = await startTestServer({ proxyHops: 2 });
    try {
      const client = nextIp();
      const anon = apiFor(two.baseUrl, { token: BAD_TOKEN });
      for (let i = 0; i < 20; i++) {
        const forwarded = `203.0.113.${i + 1}, ${client}, 10.0.0.${i + 1}`;
        const res = await anon('GET', '/auth/verify', { headers: { 'X-Forwarded-For': forwarded } });
        expect(res.status).toBe(i < 5 ? 401 : 403);
      }
    } finally {
      await two.close();
    }
  });

  it('trusts no proxy by default, one with --trust-proxy, N with --trust-proxy-hops N', () => {
    const hops = (...argv: string[]) => parseServerConfig(argv, {}).proxyHops;
    expect(hops()).toBe(0);
    expect(hops('--trust-proxy')).toBe(1);
    expect(hops('--trust-proxy-hops', '3')).toBe(3);
    expect(hops('--trust-proxy', '--trust-proxy-hops', '2')).toBe(2);
    for (const bad of ['0', '11', '1.5', 'two', '']) {
      expect(() => hops('--trust-proxy-hops', bad)).toThrow(`--trust-proxy-hops must be a whole number from 1 to 10, got ${bad}`);
    }
  });

  it('reads the address from the right, one spelling per address, and falls back to the peer', () => {
    expect(clientAddress('10.0.0.9', '1.1.1.1, 2.2.2.2', 1)).toBe('2.2.2.2');
    expect(clientAddress('10.0.0.9', '1.1.1.1, 2.2.2.2, 3.3.3.3', 2)).toBe('2.2.2.2');
    expect(clientAddress('10.0.0.9', '1.1.1.1,2.2.2.2', 0)).toBe('10.0.0.9');
    // Fewer entries than trusted proxies, or no address where the proxy's should be: not the expected way in.
    expect(clientAddress('10.0.0.9', '2.2.2.2', 2)).toBe('10.0.0.9');
    expect(clientAddress('10.0.0.9', '1.1.1.1, not-an-address', 1)).toBe('10.0.0.9');
    expect(clientAddress('::ffff:127.0.0.1', undefined, 1)).toBe('127.0.0.1');
    expect(clientAddress('10.0.0.9', '::FFFF:10.1.2.3', 1)).toBe('10.1.2.3');
    expect(clientAddress('10.0.0.9', '2001:DB8:0:0::0001', 1)).toBe('2001:db8::1');
  });

  it('keys an IPv6 client on its network of --ipv6-prefix bits (64 unless told), IPv4 and IPv4-mapped ones on the address', () => {
    expect(limitKeyAddress('2001:db8:1:2:3:4:5:6', 64)).toBe('2001:db8:1:2::/64');
    expect(limitKeyAddress('2001:db8:1:2:ffff::1', 64)).toBe('2001:db8:1:2::/64');
    expect(limitKeyAddress('2001:db8:1:3::1', 64)).toBe('2001:db8:1:3::/64');
    expect(limitKeyAddress('2001:db8:1:2ff:3::', 56)).toBe('2001:db8:1:200::/56');
    expect(limitKeyAddress('2001:db8:1:2:3:4:5:6', 128)).toBe('2001:db8:1:2:3:4:5:6');
    expect(limitKeyAddress('10.1.2.3', 64)).toBe('10.1.2.3');
    expect(limitKeyAddress(clientAddress('10.0.0.9', '::ffff:10.1.2.3', 1), 64)).toBe('10.1.2.3');
    expect(limitKeyAddress('unknown', 64)).toBe('unknown');

    const prefix = (...argv: string[]) => parseServerConfig(argv, {}).ipv6Prefix;
    expect(prefix()).toBe(64);
    expect(prefix('--ipv6-prefix', '48')).toBe(48);
    expect(parseServerConfig([], { IPV6_PREFIX: '128' }).ipv6Prefix).toBe(128);
    expect(parseServerConfig(['--ipv6-prefix', '56'], { IPV6_PREFIX: '128' }).ipv6Prefix).toBe(56);
    expect(parseServerConfig([], { IPV6_PREFIX: '' }).ipv6Prefix).toBe(64);
    for (const bad of ['15', '129', '64.5', 'wide']) {
      expect(() => prefix('--ipv6-prefix', bad)).toThrow(`--ipv6-prefix must be a whole number of bits from 16 to 128, got ${bad}`);
    }
  });

  it('reads the networks block list shows, and nothing else, as an address to lift', () => {
    expect(canonicalAddressOrNetwork('2001:DB8:1:2::/64')).toBe('2001:db8:1:2::/64');
    expect(canonicalAddressOrNetwork('2001:db8:1:2:ff::9/64')).toBe('2001:db8:1:2::/64');
    expect(canonicalAddressOrNetwork(' ::ffff:10.0.0.1 ')).toBe('10.0.0.1');
    for (const bad of ['10.0.0.0/8', '2001:db8::/0', '2001:db8::/129', '2001:db8::/x', '2001:db8::/64/1', 'host/64']) {
      expect(canonicalAddressOrNetwork(bad)).toBeNull();
    }
  });

  it('blocks the whole /64 of an IPv6 client: a new address in it is still blocked, another /64 is not', async () => {
    const bad = (from: string) => apiFor(t.baseUrl, { ip: from, token: BAD_TOKEN })('GET', '/auth/verify');
    // Five failures, each from a fresh address of one /64, as a client rotating through its addresses.
    for (let i = 1; i <= 5; i++) expectError(await bad(`2001:db8:64:1::${i.toString(16)}`), 401, 'INVALID_TOKEN');
    await expectBlocked('2001:db8:64:1:abcd::99');
    const u = await t.user();
    expect((await u.api('GET', '/auth/verify', { ip: '2001:db8:64:2::1' })).status).toBe(200);
  });
});

const BlockList = z.strictObject({ blocks: z.array(z.strictObject({ ip: z.string(), until: z.iso.datetime() })) });

describe('admin block list / block lift, while the server runs', () => {
  // Its first list and lift as run from outside (through npm run), on SQLite; the rest, and the same on Redis and
  // PostgreSQL (the same entry with --redis or --database), runs the command's entry in this process: an admin process
  // started through tsx took up to 15 s at load.
  const fromOutside = !onPostgresProject && process.env.SHELF_TEST_REDIS_URL === undefined;
  const listOrLift = fromOutside ? runAdmin : runAdminInProcess;
  it('lists the blocks in force and lifts one, which the server sees on its next request', { timeout: 60_000 }, async () => {
    const ip = nextIp();
    const other = nextIp();
    const anon = (from: string) => apiFor(t.baseUrl, { ip: from, token: BAD_TOKEN })('GET', '/auth/verify');
    for (let i = 0; i < 5; i++) await anon(ip);
    for (let i = 0; i < 5; i++) await anon(`::ffff:${other}`);
    await expectBlocked(ip);

    const listed = await listOrLift(t, 'block', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    const { blocks } = BlockList.parse(JSON.parse(listed.stdout));
    // Other tests of this file may have left blocks of their own addresses.
    expect(blocks.map((b) => b.ip)).toEqual(expect.arrayContaining([ip, other]));
    const until = Date.parse(blocks.find((b) => b.ip === ip)!.until) - t.server.deps.clock.now();
    expect(until).toBeGreaterThan(14 * 60_000);
    expect(until).toBeLessThanOrEqual(15 * 60_000);

    const lifted = await listOrLift(t, 'block', 'lift', '--ip', ip);
    expect(lifted.code, lifted.stderr).toBe(0);
    expect(JSON.parse(lifted.stdout)).toEqual({ ip, lifted: true });
    const u = await t.user();
    expect((await u.api('GET', '/auth/verify', { ip })).status).toBe(200);
    await expectBlocked(other);
    const left = BlockList.parse(JSON.parse((await runAdminInProcess(t, 'block', 'list')).stdout)).blocks.map((b) => b.ip);
    expect(left).toContain(other);
    expect(left).not.toContain(ip);

    // The mapped spelling of an address is the address.
    expect(JSON.parse((await runAdminInProcess(t, 'block', 'lift', '--ip', `::ffff:${other}`)).stdout)).toEqual({ ip: other, lifted: true });
    expect((await u.api('GET', '/auth/verify', { ip: other })).status).toBe(200);
  });

  it('lists an IPv6 block as its /64 and lifts it given that network or any address in it', async () => {
    const bad = (from: string) => apiFor(t.baseUrl, { ip: from, token: BAD_TOKEN })('GET', '/auth/verify');
    const u = await t.user();
    for (const [n, lift] of [
      [3, '2001:db8:64:3::/64'],
      [4, '2001:DB8:64:4:ffff::1'],
    ] as const) {
      for (let i = 1; i <= 5; i++) await bad(`2001:db8:64:${n}::${i}`);
      await expectBlocked(`2001:db8:64:${n}::77`);
      const { blocks } = BlockList.parse(JSON.parse((await runAdminInProcess(t, 'block', 'list')).stdout));
      expect(blocks.map((b) => b.ip)).toContain(`2001:db8:64:${n}::/64`);
      const lifted = await runAdminInProcess(t, 'block', 'lift', '--ip', lift);
      expect(lifted.code, lifted.stderr).toBe(0);
      expect(JSON.parse(lifted.stdout)).toEqual({ ip: `2001:db8:64:${n}::/64`, lifted: true });
      expect((await u.api('GET', '/auth/verify', { ip: `2001:db8:64:${n}::77` })).status).toBe(200);
    }
  });

  it('refuses a lift without an address, of something that is no address, or of an address not blocked, changing nothing', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++) await apiFor(t.baseUrl, { ip, token: BAD_TOKEN })('GET', '/auth/verify');
    for (const [args, message] of [
      [[], /--ip is required/],
      [['--ip', 'example.com'], /--ip must be an IPv4 or IPv6 address \(or an IPv6 network as block list shows it\), got example.com/],
      [['--ip', '10.250.250.250'], /no block on 10.250.250.250/],
    ] as const) {
      const res = await runAdminInProcess(t, 'block', 'lift', ...args);
      expect(res.code).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(message);
    }
    await expectBlocked(ip);
  });

  it('refuses an IPv4 network, a prefix out of range and an IPv6 address no block covers, changing nothing', async () => {
    const ip = '2001:db8:64:5::1';
    for (let i = 0; i < 5; i++) await apiFor(t.baseUrl, { ip, token: BAD_TOKEN })('GET', '/auth/verify');
    for (const [args, message] of [
      [['--ip', '10.0.0.0/8'], /--ip must be an IPv4 or IPv6 address \(or an IPv6 network as block list shows it\), got 10.0.0.0\/8/],
      [['--ip', '2001:db8:64:5::/129'], /--ip must be an IPv4 or IPv6 address/],
      [['--ip', '2001:db8:64:6::1'], /no block on 2001:db8:64:6::1/],
    ] as const) {
      const res = await runAdminInProcess(t, 'block', 'lift', ...args);
      expect(res.code).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(message);
    }
    await expectBlocked(ip);
  });
});
