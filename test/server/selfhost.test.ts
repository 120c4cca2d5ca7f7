import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VerifiedUser } from '../../lib/api/auth.ts';
import { Tag } from '../../lib/api/tags.ts';
import { openPostgres } from '../../server/db/postgres/connect.ts';
import { PgAccounts } from '../../server/store/postgres/accounts.ts';
import { adminInProcess } from '../support/admin-command.ts';
import { type Started, jsonLine, npmRun, root, startServerProcess, stop } from '../support/cli.ts';
import { dataOf } from '../support/expect.ts';
import { startPostgres } from '../support/postgres.ts';
import { apiFor } from '../support/server.ts';

/** Self-hosting: --help, start-up failures, the admin command's guards, the production build and the store zip. */

const dataDir = mkdtempSync(join(tmpdir(), 'shelf-selfhost-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The flags a parseArgs options block in this source file declares. */
function declaredFlags(file: string): string[] {
  const source = readFileSync(join(root, file), 'utf8');
  const block = source.slice(source.indexOf('options: {'));
  return [...block.matchAll(/^\s+'?([a-z][a-z-]*)'?: \{ type: '(?:string|boolean)'/gm)].map((m) => `--${m[1]}`);
}

describe('npm run server', () => {
  it('--help says what every flag and environment variable does, and exits 0', async () => {
    const flags = declaredFlags('server/config.ts');
    expect(flags).toEqual(expect.arrayContaining(['--port', '--host', '--data', '--trust-proxy']));
    const help = await npmRun('server', ['--help']);
    expect(help.code).toBe(0);
    for (const flag of [...flags, '--help', 'PORT', 'HOST', 'DATA_DIR']) expect(help.stdout, flag).toMatch(new RegExp(`(^|\\s)${flag}\\b`, 'm'));
    expect(help.stdout, 'it did not start').not.toMatch(/^listening /m);
  }, 30_000);

  it('says in one line that the port is taken and exits 1, without a stack trace or a listening line', async () => {
    const first = await startServerProcess(['--port', '0', '--data', dataDir]);
    try {
      const port = new URL(first.baseUrl).port;
      const second = await npmRun('server', ['--port', port, '--data', join(dataDir, 'other')]);
      expect(second.code).toBe(1);
      expect(second.stdout).not.toMatch(/listening/);
      expect(second.stderr.trim().split('\n')).toEqual([
        `shelf server: 127.0.0.1 port ${port} is already in use, probably by another Shelf server. Stop that one, or start this one on another port: --port N (or PORT=N).`,
      ]);
    } finally {
      expect(await stop(first.child)).toBe(0);
    }
  }, 30_000);
});

describe('npm run admin', () => {
  // Through the command's own entry in this process (what server/admin.ts runs): cli.test.ts runs each command and a
  // refusal through npm run, seconds each under tsx.
  const admin = (...args: string[]) => adminInProcess(['--data', dataDir, ...args]);

  it('--help names every command and flag, and exits 0', async () => {
    const source = readFileSync(join(root, 'server/admin/main.ts'), 'utf8');
    const commands = [...source.matchAll(/case '([a-z]+ [a-z]+)':/g)].map((m) => m[1]!);
    expect(commands).toEqual(expect.arrayContaining(['user create', 'user list', 'token create']));
    const help = await npmRun('admin', ['--help']);
    expect(help.code).toBe(0);
    for (const word of [...commands, ...declaredFlags('server/admin.ts')]) expect(help.stdout, word).toContain(word);
  }, 30_000);

  it('refuses a --data directory that does not exist, and creates nothing', async () => {
    const missing = join(dataDir, 'typo', 'data');
    const result = await adminInProcess(['--data', missing, 'user', 'list']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`--data ${missing} does not exist`);
    expect(existsSync(join(dataDir, 'typo'))).toBe(false);
  }, 30_000);

  it('user list: every user, oldest first, with the tokens that still work', async () => {
    const listed = z.object({
      users: z.array(
        z.object({ userId: z.string(), name: z.string(), email: z.string(), plan: z.enum(['pro', 'free']), status: z.string(), createdAt: z.string(), activeTokens: z.number() }),
      ),
    });
    const before = jsonLine(listed, (await admin('user', 'list')).stdout).users;
    expect(before).toHaveLength(1); // the user the server's first start on dataDir made (the port test above)
    expect(before[0]).toMatchObject({ plan: 'pro', activeTokens: 1 });

    const { userId } = jsonLine(z.object({ userId: z.string() }), (await admin('user', 'create', '--name', 'Grace', '--email', 'grace@example.com', '--plan', 'free')).stdout);
    const after = jsonLine(listed, (await admin('user', 'list')).stdout).users;
    expect(after.map((u) => u.userId)).toEqual([before[0]!.userId, userId]);
    expect(after[1]).toMatchObject({ name: 'Grace', email: 'grace@example.com', plan: 'free', status: 'active', activeTokens: 0 });
  }, 30_000);
});

describe('the production build', () => {
  beforeAll(async () => {
    const built = await npmRun('build:server', []);
    expect(built.code, built.stderr).toBe(0);
  }, 60_000);

  it('imports nothing but Node built-ins, better-sqlite3 and pg-native (pg loads it only when asked): no TypeScript at run time', () => {
    const dir = join(root, 'dist/server');
    expect(readdirSync(dir)).toEqual(expect.arrayContaining(['main.js', 'admin.js']));
    const allowed = new Set([...builtinModules, 'better-sqlite3', 'pg-native']);
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as {
      outputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
    };
    const external = Object.values(meta.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
    expect(external).toContain('better-sqlite3');
    expect(external.filter((path) => !allowed.has(path.replace(/^node:/, '')))).toEqual([]);
    expect(readdirSync(join(dir, 'migrations'))).toEqual(readdirSync(join(root, 'server/db/migrations')));
  });

  it('npm run serve: plain node answers the API, and npm run serve:admin manages its accounts', async () => {
    const served = join(dataDir, 'served');
    const server: Started = await startServerProcess(['--port', '0', '--data', served], {}, 'serve');
    try {
      const token = server.stdout.match(/tok_[0-9a-f]{64}/)![0];
      expect(server.stdout).toContain(`More tokens: npm run --silent serve:admin -- --data ${served} token create`);
      const api = apiFor(server.baseUrl, { token });
      expect(dataOf(await api('POST', '/auth/verify'), VerifiedUser).plan).toBe('pro');
      // A tag rename runs on a thread whose module the build puts beside main.js.
      const tag = dataOf(await api('POST', '/tags', { body: { name: 'a/b' } }), Tag, 201);
      expect(dataOf(await api('PATCH', `/tags/${tag.parentId}`, { body: { newName: 'z' } }), Tag).name).toBe('z');
      expect(dataOf(await api('GET', '/tags'), z.array(Tag)).map((t) => t.name)).toEqual(['z', 'z/b']);
      expect((await fetch(`${server.baseUrl}/openapi.json`)).status).toBe(200);
      const users = await npmRun('serve:admin', ['--data', served, 'user', 'list']);
      expect(jsonLine(z.object({ users: z.array(z.object({ activeTokens: z.literal(1) })).length(1) }), users.stdout)).toBeTruthy();
    } finally {
      expect(await stop(server.child)).toBe(0);
    }
  }, 60_000);

  it('npm run serve:admin -- --database migrates a PostgreSQL database with its own migrations', async () => {
    const cluster = await startPostgres();
    try {
      const url = await cluster.createDatabase();
      const created = await npmRun('serve:admin', ['--database', url, 'user', 'create', '--name', 'Ada', '--email', 'ada@example.com', '--plan', 'pro']);
      expect(created.code, created.stderr).toBe(0);
      const db = await openPostgres(url);
      try {
        const applied = await db.all<{ name: string }>('SELECT name FROM migrations ORDER BY name');
        expect(applied.map((m) => m.name)).toEqual(readdirSync(join(root, 'server/db/postgres/migrations')).sort());
        expect(await new PgAccounts(db).listUsers()).toEqual([expect.objectContaining({ name: 'Ada' })]);
      } finally {
        await db.close();
      }
    } finally {
      await cluster.stop();
    }
  }, 60_000);
});
