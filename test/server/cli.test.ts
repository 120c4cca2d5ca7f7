import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VerifiedUser } from '../../lib/api/auth.ts';
import { adminInProcess } from '../support/admin-command.ts';
import { type Started, jsonLine as json, npmRun, startServerProcess as startServer, stop } from '../support/cli.ts';
import { dataOf, expectError } from '../support/expect.ts';
import { apiFor } from '../support/server.ts';

/**
 * The command-line contract of the server and the admin command, driven exactly as outside tools drive it: through
 * npm run (each admin command once, and a refusal; its further cases through the same entry in this process).
 */

const dataDir = mkdtempSync(join(tmpdir(), 'shelf-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const admin = (...args: string[]) => npmRun('admin', ['--data', dataDir, ...args]);
/**
 * The same command line through the command's own entry in this process (what server/admin.ts runs), for the cases
 * beyond the first of each kind: every command and a refusal go through npm run above, seconds each under tsx.
 */
const adminHere = (...args: string[]) => adminInProcess(['--data', dataDir, ...args]);

describe('server and admin commands', () => {
  let server: Started;
  let firstToken: string;

  it('creates a local Pro user on first start, prints its token once, then one listening line', async () => {
    server = await startServer(['--port', '0', '--data', dataDir]);
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    firstToken = server.stdout.match(/tok_[0-9a-f]{64}/)![0];
    expect(server.stdout.split('\n').filter((l) => l.includes('listening'))).toHaveLength(1);
    const me = dataOf(await apiFor(server.baseUrl, { token: firstToken })('POST', '/auth/verify'), VerifiedUser);
    expect(me.plan).toBe('pro');
  }, 30_000);

  it('manages users and tokens while the server runs, effective on the next request', async () => {
    const { userId } = json(z.object({ userId: z.string() }), (await admin('user', 'create', '--name', 'Ada', '--email', 'ada@example.com', '--plan', 'pro')).stdout);
    const created = json(
      z.object({ tokenId: z.string(), token: z.string().regex(/^tok_[0-9a-f]{64}$/) }),
      (await admin('token', 'create', '--user', userId, '--name', 'laptop', '--scopes', 'bookmarks:read,tags:write')).stdout,
    );
    const api = apiFor(server.baseUrl, { token: created.token });
    expect(dataOf(await api('POST', '/auth/verify'), VerifiedUser)).toMatchObject({ userId, name: 'Ada', email: 'ada@example.com' });

    const listed = json(
      z.object({ tokens: z.array(z.object({ tokenId: z.string(), name: z.string(), scopes: z.array(z.string()), createdAt: z.string(), expiresAt: z.null(), revokedAt: z.null(), lastUsedAt: z.string().nullable() })) }),
      (await admin('token', 'list', '--user', userId)).stdout,
    );
    expect(listed.tokens).toHaveLength(1);
    expect(listed.tokens[0]).toMatchObject({ tokenId: created.tokenId, name: 'laptop', scopes: ['bookmarks:read', 'tags:write'] });
    expect(JSON.stringify(listed)).not.toContain(created.token);

    const plan = json(z.object({ userId: z.string(), plan: z.literal('free') }), (await admin('user', 'plan', '--user', userId, '--plan', 'free')).stdout);
    expect(plan.userId).toBe(userId);
    expectError(await api('POST', '/auth/verify'), 403, 'API_ACCESS_PRO_REQUIRED');
    await adminHere('user', 'plan', '--user', userId, '--plan', 'pro');

    const revoked = json(z.object({ tokenId: z.string(), revoked: z.literal(true) }), (await admin('token', 'revoke', '--id', created.tokenId)).stdout);
    expect(revoked.tokenId).toBe(created.tokenId);
    expectError(await api('POST', '/auth/verify'), 401, 'TOKEN_REVOKED');
  }, 60_000);

  it('honours --expires and --scopes all', async () => {
    const { userId } = json(z.object({ userId: z.string() }), (await adminHere('user', 'create', '--name', 'B', '--email', 'b@example.com', '--plan', 'pro')).stdout);
    const { token } = json(z.object({ token: z.string() }), (await adminHere('token', 'create', '--user', userId, '--name', 'old', '--scopes', 'all', '--expires', '2001-01-01T00:00:00Z')).stdout);
    expectError(await apiFor(server.baseUrl, { token })('POST', '/auth/verify'), 401, 'TOKEN_EXPIRED');
  }, 30_000);

  it('refuses bad arguments with a message on stderr and a non-zero exit', async () => {
    const cases: [string[], RegExp][] = [
      [['user', 'create', '--name', 'x', '--email', 'x@example.com', '--plan', 'gold'], /--plan must be pro or free/],
      [['user', 'create', '--name', 'x', '--plan', 'pro'], /--email is required/],
      [['token', 'create', '--user', 'usr_nope', '--name', 'n', '--scopes', 'all'], /no user usr_nope/],
      [['token', 'revoke', '--id', 'tkn_nope'], /no token tkn_nope/],
      [['frobnicate'], /unknown command/],
      [['user', 'create', '--bogus'], /bogus/],
    ];
    for (const [i, [args, message]] of cases.entries()) {
      const result = await (i === 0 ? admin : adminHere)(...args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    }
    const { userId } = json(z.object({ userId: z.string() }), (await adminHere('user', 'create', '--name', 'F', '--email', 'f@example.com', '--plan', 'free')).stdout);
    const free = await adminHere('token', 'create', '--user', userId, '--name', 'n', '--scopes', 'all');
    expect(free.code).not.toBe(0);
    expect(free.stderr).toMatch(/free accounts cannot create/);
    await adminHere('user', 'plan', '--user', userId, '--plan', 'pro');
    const badScope = await adminHere('token', 'create', '--user', userId, '--name', 'n', '--scopes', 'bookmarks:read,everything');
    expect(badScope.stderr).toMatch(/unknown scope\(s\) everything/);
  }, 60_000);

  it('refuses the 11th active token', async () => {
    const { userId } = json(z.object({ userId: z.string() }), (await adminHere('user', 'create', '--name', 'T', '--email', 't@example.com', '--plan', 'pro')).stdout);
    const { accounts } = await openAccounts();
    const { issueToken } = await import('../../server/auth/tokens.ts');
    for (let i = 0; i < 10; i++) await issueToken(accounts, { userId, name: `t${i}`, scopes: ['tags:read'], expiresAt: null }, Date.now());
    const eleventh = await adminHere('token', 'create', '--user', userId, '--name', 'n', '--scopes', 'all');
    expect(eleventh.code).not.toBe(0);
    expect(eleventh.stderr).toMatch(/10 active tokens/);
  }, 30_000);

  it('shuts down cleanly on SIGTERM and keeps everything for the next start', async () => {
    expect(await stop(server.child)).toBe(0);
    server = await startServer(['--data', dataDir], { PORT: '0' });
    expect(server.stdout).not.toMatch(/tok_/);
    expect((await apiFor(server.baseUrl, { token: firstToken })('POST', '/auth/verify')).status).toBe(200);
    expect(await stop(server.child, 'SIGINT')).toBe(0);
  }, 30_000);

  it('refuses a bad flag', async () => {
    await expect(startServer(['--port', 'eighty'])).rejects.toThrow(/exited with 2/);
  }, 30_000);
});

async function openAccounts() {
  const { openDatabase } = await import('../../server/db/database.ts');
  const { SqliteAccounts } = await import('../../server/store/sqlite/accounts.ts');
  return { accounts: new SqliteAccounts(openDatabase(dataDir)) };
}
