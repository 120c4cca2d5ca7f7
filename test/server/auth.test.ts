import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenCheck, VerifiedUser } from '../../lib/api/auth.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { openRawDb } from '../support/raw-db.ts';
import { apiFor, nextIp, startTestServer, type TestServer } from '../support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('token verification', () => {
  it('POST /auth/verify answers who the token belongs to', async () => {
    const u = await t.user();
    const user = dataOf(await u.api('POST', '/auth/verify'), VerifiedUser);
    expect(user).toEqual({ userId: u.userId, name: 'Test user', email: 'test@example.com', plan: 'pro', status: 'active' });
  });

  it('GET /auth/verify answers what the token may do, for a token of any scope', async () => {
    const u = await t.user({ scopes: ['tags:read'] });
    const check = dataOf(await u.api('GET', '/auth/verify'), TokenCheck);
    expect(check).toEqual({ valid: true, userId: u.userId, tokenId: u.tokenId, scopes: ['tags:read'], expiresAt: null });
  });

  it('refuses a request without a bearer token', async () => {
    const api = apiFor(t.baseUrl, { ip: nextIp() });
    expectError(await api('POST', '/auth/verify'), 401, 'MISSING_TOKEN');
    expectError(await api('POST', '/auth/verify', { headers: { Authorization: 'Basic dXNlcjpwYXNz' } }), 401, 'MISSING_TOKEN');
    expectError(await api('POST', '/auth/verify', { headers: { Authorization: 'Bearer' } }), 401, 'MISSING_TOKEN');
  });

  it('refuses malformed and unknown tokens as INVALID_TOKEN', async () => {
    const api = apiFor(t.baseUrl, { ip: nextIp() });
    expectError(await api('POST', '/auth/verify', { token: 'tok_123' }), 401, 'INVALID_TOKEN');
    expectError(await api('POST', '/auth/verify', { token: `tok_${'a'.repeat(64)}` }), 401, 'INVALID_TOKEN');
  });

  it('refuses a revoked token on the very next request', async () => {
    const u = await t.user();
    expect((await u.api('POST', '/auth/verify')).status).toBe(200);
    await t.server.deps.store.accounts.revokeToken(u.tokenId, t.server.deps.clock.now());
    expectError(await u.api('POST', '/auth/verify'), 401, 'TOKEN_REVOKED');
  });

  it('refuses a token past its expiry date, as the server clock reads it', async () => {
    const u = await t.user({ expiresAt: t.server.deps.clock.now() + 60_000 });
    const check = dataOf(await u.api('GET', '/auth/verify'), TokenCheck);
    expect(check.expiresAt).not.toBeNull();
    await t.advance(61_000);
    expectError(await u.api('POST', '/auth/verify'), 401, 'TOKEN_EXPIRED');
  });

  it('refuses a free account', async () => {
    const u = await t.user({ plan: 'free' });
    const message = expectError(await u.api('POST', '/auth/verify'), 403, 'API_ACCESS_PRO_REQUIRED');
    expect(message).toMatch(/Pro/);
  });

  it('takes a plan change into account on the next request', async () => {
    const u = await t.user();
    await t.server.deps.store.accounts.setPlan(u.userId, 'free');
    expectError(await u.api('GET', '/auth/verify'), 403, 'API_ACCESS_PRO_REQUIRED');
    await t.server.deps.store.accounts.setPlan(u.userId, 'pro');
    expect((await u.api('GET', '/auth/verify')).status).toBe(200);
  });

  it('names the missing scope, and lets a write scope stand for its read scope', async () => {
    const reader = await t.user({ scopes: ['tags:read'] });
    const message = expectError(await reader.api('POST', '/tags', { body: { name: 'x' } }), 403, 'SCOPE_REQUIRED');
    expect(message).toContain('tags:write');
    const writer = await t.user({ scopes: ['tags:write'] });
    expect((await writer.api('GET', '/tags')).status).toBe(200);
  });

  it('keeps only the SHA-256 hash of a token', async () => {
    const u = await t.user();
    const { createHash } = await import('node:crypto');
    const found = await t.server.deps.store.accounts.findTokenByHash(createHash('sha256').update(u.token).digest('hex'));
    expect(found?.token.id).toBe(u.tokenId);
    expect(await storedText(t)).not.toContain(u.token.slice(4));
  });

  it('refuses an 11th active token, but counts neither revoked nor expired ones', async () => {
    const u = await t.user();
    const { issueToken } = await import('../../server/auth/tokens.ts');
    const { accounts } = t.server.deps.store;
    const now = t.server.deps.clock.now();
    const more = [];
    for (let i = 0; i < 9; i++) more.push(await issueToken(accounts, { userId: u.userId, name: `t${i}`, scopes: ['tags:read'], expiresAt: null }, now));
    await expect(issueToken(accounts, { userId: u.userId, name: 'eleventh', scopes: ['tags:read'], expiresAt: null }, now)).rejects.toThrow(/10 active/);
    await accounts.revokeToken(more[0]!.record.id, now);
    await issueToken(accounts, { userId: u.userId, name: 'after revoke', scopes: ['tags:read'], expiresAt: null }, now);
    expect((await accounts.listTokens(u.userId)).length).toBe(11);
  });
});

/** Everything the server's database holds, as text: SQLite's files (and write-ahead log) byte for byte, or every row of every table on PostgreSQL. */
async function storedText(t: TestServer): Promise<string> {
  const { databaseUrl } = t.server.deps.config;
  if (databaseUrl === null) {
    return readFileSync(join(t.dataDir, 'shelf.db')).toString('latin1') + readFileSync(join(t.dataDir, 'shelf.db-wal')).toString('latin1');
  }
  const db = openRawDb({ dataDir: t.dataDir, databaseUrl });
  try {
    const tables = await db.all<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'");
    expect(tables.map((table) => table.name)).toContain('tokens');
    const rows = await Promise.all(tables.map(({ name }) => db.all<{ row: string }>(`SELECT r::text AS row FROM "${name}" AS r`)));
    return rows.flat().map((r) => r.row).join('\n');
  } finally {
    await db.close();
  }
}
