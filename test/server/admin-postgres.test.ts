import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hashToken } from '../../server/auth/tokens.ts';
import { openPostgres } from '../../server/db/postgres/connect.ts';
import type { Pg } from '../../server/db/postgres/pg.ts';
import { PgAccounts } from '../../server/store/postgres/accounts.ts';
import { PgBlocks } from '../../server/store/postgres/blocks.ts';
import { adminInProcess } from '../support/admin-command.ts';
import { jsonLine, npmRun } from '../support/cli.ts';
import { freePort } from '../support/free-port.ts';
import { type TestPostgres, startPostgres } from '../support/postgres.ts';

/** The admin command on a PostgreSQL database (--database or DATABASE_URL), as the servers that share it use it. */

let cluster: TestPostgres;
let url: string;
let db: Pg;
const dataDir = mkdtempSync(join(tmpdir(), 'shelf-admin-pg-'));

beforeAll(async () => {
  cluster = await startPostgres();
  url = await cluster.createDatabase();
}, 60_000);

afterAll(async () => {
  await db?.close();
  await cluster?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

// The command's own entry in this process, as selfhost.test.ts does; what a process adds (npm run, the flags and
// DATABASE_URL as it reads them) is checked through `npm run admin` once each below.
const admin = (...args: string[]) => adminInProcess(['--database', url, ...args]);
const UserId = z.object({ userId: z.string() });

describe('npm run admin -- --database', () => {
  it('creates the schema of an empty database, then manages users and tokens in it', async () => {
    const { userId } = jsonLine(UserId, (await npmRun('admin', ['--database', url, 'user', 'create', '--name', 'Ada', '--email', 'ada@example.com', '--plan', 'free'])).stdout);
    // What the command wrote is what the servers' store reads.
    db = await openPostgres(url);
    const accounts = new PgAccounts(db);
    expect(await accounts.getUser(userId)).toMatchObject({ name: 'Ada', email: 'ada@example.com', plan: 'free' });

    const refused = await admin('token', 'create', '--user', userId, '--name', 'cli', '--scopes', 'all');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('free accounts cannot create API tokens');

    expect(jsonLine(z.object({ userId: z.string(), plan: z.literal('pro') }), (await admin('user', 'plan', '--user', userId, '--plan', 'pro')).stdout).userId).toBe(userId);
    const created = jsonLine(
      z.object({ tokenId: z.string(), token: z.string() }),
      (await admin('token', 'create', '--user', userId, '--name', 'cli', '--scopes', 'all')).stdout,
    );
    expect((await accounts.findTokenByHash(hashToken(created.token)))?.token.id).toBe(created.tokenId);

    const listed = await admin('user', 'list');
    expect(jsonLine(z.object({ users: z.array(z.object({ userId: z.string(), activeTokens: z.number() })) }), listed.stdout).users).toEqual([
      expect.objectContaining({ userId, activeTokens: 1 }),
    ]);
    expect(jsonLine(z.object({ tokenId: z.string(), revoked: z.literal(true) }), (await admin('token', 'revoke', '--id', created.tokenId)).stdout).tokenId).toBe(
      created.tokenId,
    );
    expect((await accounts.findTokenByHash(hashToken(created.token)))?.token.revokedAt).not.toBeNull();
  }, 60_000);

  it('lists and lifts the IP blocks kept in the database', async () => {
    db ??= await openPostgres(url);
    await new PgBlocks(db).block('block:203.0.113.7', Date.now() + 60_000);
    const listed = jsonLine(z.object({ blocks: z.array(z.object({ ip: z.string() })) }), (await admin('block', 'list')).stdout);
    expect(listed.blocks.map((b) => b.ip)).toEqual(['203.0.113.7']);
    expect((await admin('block', 'lift', '--ip', '203.0.113.7')).code).toBe(0);
    expect(await new PgBlocks(db).list(Date.now())).toEqual([]);
  }, 30_000);

  it('takes the database from DATABASE_URL when no flag names one', async () => {
    const listed = await npmRun('admin', ['user', 'list'], { DATABASE_URL: url });
    expect(listed.code, listed.stderr).toBe(0);
    expect(jsonLine(z.object({ users: z.array(z.object({ name: z.string() })) }), listed.stdout).users.map((u) => u.name)).toEqual(['Ada']);
  }, 30_000);

  it('refuses --data and --database together, a URL that is not PostgreSQL, and neither, changing nothing', async () => {
    const both = await adminInProcess(['--data', dataDir, '--database', url, 'user', 'create', '--name', 'X', '--email', 'x@example.com', '--plan', 'pro']);
    expect(both.code).toBe(2);
    expect(both.stdout).toBe('');
    expect(both.stderr).toContain('give --data DIR (SQLite) or --database URL (PostgreSQL), not both');

    const notPostgres = await adminInProcess(['--database', 'mysql://db.example/shelf', 'user', 'list']);
    expect(notPostgres.code).toBe(2);
    expect(notPostgres.stderr).toContain('--database must be a postgres://USER@HOST:PORT/DB URL, got mysql://db.example/shelf');
    const envNotPostgres = await adminInProcess(['user', 'list'], { DATABASE_URL: 'mysql://root:hunter2@db.example/shelf' });
    expect(envNotPostgres.code).toBe(2);
    expect(envNotPostgres.stderr).toContain('DATABASE_URL must be a postgres://USER@HOST:PORT/DB URL');
    expect(envNotPostgres.stderr).not.toContain('hunter2');

    const neither = await adminInProcess(['user', 'list'], { DATABASE_URL: '' });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--data DIR or --database URL is required (or DATABASE_URL in the environment)');

    const users = await new PgAccounts(db).listUsers();
    expect(users.map((u) => u.name)).toEqual(['Ada']);
  }, 60_000);

  it('says in one line that the database cannot be reached, without its password, and exits 1', async () => {
    const port = await freePort();
    const result = await adminInProcess(['--database', `postgres://shelf:s3cret@127.0.0.1:${port}/shelf`, 'user', 'list']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^admin: could not open the database at postgres://shelf:\\*+@127\\.0\\.0\\.1:${port}/shelf: .*ECONNREFUSED`));
    expect(result.stderr).not.toContain('s3cret');
  }, 30_000);
});
