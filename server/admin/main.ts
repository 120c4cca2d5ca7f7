import { existsSync, statSync } from 'node:fs';
import { ADMIN_HELP } from '../cli-help.ts';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { Plan } from '../../lib/api/auth.ts';
import { ALL_SCOPES, Scope } from '../../lib/api/scopes.ts';
import { BLOCK_USAGE, runBlockCommand } from './blocks.ts';
import { UsageError } from './usage-error.ts';
import { issueToken } from '../auth/tokens.ts';
import { iso } from '../clock.ts';
import { openDatabase } from '../db/database.ts';
import { MemoryLimitStore } from '../limits/memory-limit-store.ts';
import type { AccountsStore, TokenRecord } from '../store/accounts.ts';
import type { BlocksStore } from '../store/blocks.ts';
import { SqliteAccounts } from '../store/sqlite/accounts.ts';
import { SqliteBlocks } from '../store/sqlite/blocks.ts';
import { RedisLimitStore } from '../limits/redis-limit-store.ts';
import { openRedis } from '../redis/connect.ts';
import type { LimitStore } from '../limits/limit-store.ts';

/** The environment variables the command reads (DATABASE_URL, REDIS_URL). */
type Env = Record<string, string | undefined>;

/** Where the command's lines go: stdout and stderr when run as a command. */
export interface AdminOutput {
  log(line: string): void;
  error(line: string): void;
}

const USAGE = `usage: npm run --silent admin -- --data DIR | --database postgres://USER@HOST:PORT/DB [--redis redis://HOST:PORT] <command>
  user create --name NAME --email EMAIL --plan pro|free
  user plan --user USER_ID --plan pro|free
  user list
  token create --user USER_ID --name NAME --scopes SCOPE[,SCOPE...]|all [--expires ISO_8601]
  token revoke --id TOKEN_ID
  token list --user USER_ID
${BLOCK_USAGE}`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  data: { type: 'string' },
  database: { type: 'string' },
  name: { type: 'string' },
  email: { type: 'string' },
  plan: { type: 'string' },
  user: { type: 'string' },
  scopes: { type: 'string' },
  expires: { type: 'string' },
  id: { type: 'string' },
  ip: { type: 'string' },
  redis: { type: 'string' },
} as const;

const parse = (argv: string[]) => parseArgs({ args: argv.filter((arg) => arg !== '--'), options: OPTIONS, allowPositionals: true, strict: true });

type Values = ReturnType<typeof parse>['values'];

function need(values: Values, name: Exclude<keyof Values, 'help'>): string {
  const value = values[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

function plan(values: Values): Plan {
  const parsed = Plan.safeParse(need(values, 'plan'));
  if (!parsed.success) throw new UsageError('--plan must be pro or free');
  return parsed.data;
}

function scopes(values: Values): Scope[] {
  const raw = need(values, 'scopes');
  if (raw === 'all') return [...ALL_SCOPES];
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = list.filter((s) => !Scope.safeParse(s).success);
  if (unknown.length > 0 || list.length === 0) {
    throw new UsageError(`unknown scope(s) ${unknown.join(', ') || '(none given)'}; choose from ${ALL_SCOPES.join(', ')} or all`);
  }
  return [...new Set(list)] as Scope[];
}

function expires(values: Values): number | null {
  if (values.expires === undefined) return null;
  const ms = Date.parse(values.expires);
  if (Number.isNaN(ms)) throw new UsageError(`--expires must be an ISO 8601 date, got ${values.expires}`);
  return ms;
}

const tokenJson = (t: TokenRecord) => ({
  tokenId: t.id,
  name: t.name,
  scopes: t.scopes,
  createdAt: iso(t.createdAt),
  expiresAt: t.expiresAt === null ? null : iso(t.expiresAt),
  revokedAt: t.revokedAt === null ? null : iso(t.revokedAt),
  lastUsedAt: t.lastUsedAt === null ? null : iso(t.lastUsedAt),
});

/** What the commands change: the accounts and IP blocks of the servers' database. */
interface AdminStores {
  accounts: AccountsStore;
  blocks: BlocksStore;
}

async function run({ accounts, blocks }: AdminStores, command: string, values: Values, env: Env): Promise<object> {
  const now = Date.now();
  const existingUser = async () => {
    const user = await accounts.getUser(need(values, 'user'));
    if (!user) throw new UsageError(`no user ${values.user}`);
    return user;
  };
  switch (command) {
    case 'user create': {
      const email = need(values, 'email');
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError(`--email must be an email address, got ${email}`);
      const user = await accounts.createUser({ name: need(values, 'name'), email, plan: plan(values) }, now);
      return { userId: user.id };
    }
    case 'user plan': {
      const user = await existingUser();
      const updated = await accounts.setPlan(user.id, plan(values));
      return { userId: user.id, plan: updated!.plan };
    }
    case 'token create': {
      const user = await existingUser();
      if (user.plan !== 'pro') throw new UsageError('free accounts cannot create API tokens; move the user to pro first (user plan)');
      const { record, token } = await issueToken(
        accounts,
        { userId: user.id, name: need(values, 'name'), scopes: scopes(values), expiresAt: expires(values) },
        now,
      );
      return { tokenId: record.id, token };
    }
    case 'token revoke': {
      const record = await accounts.revokeToken(need(values, 'id'), now);
      if (!record) throw new UsageError(`no token ${values.id}`);
      return { tokenId: record.id, revoked: true };
    }
    case 'user list': {
      const users = await accounts.listUsers();
      const working = (t: TokenRecord) => t.revokedAt === null && (t.expiresAt === null || t.expiresAt > now);
      return {
        users: await Promise.all(
          users.map(async (u) => ({
            userId: u.id,
            name: u.name,
            email: u.email,
            plan: u.plan,
            status: u.status,
            createdAt: iso(u.createdAt),
            activeTokens: (await accounts.listTokens(u.id)).filter(working).length,
          })),
        ),
      };
    }
    case 'token list': {
      const user = await existingUser();
      return { tokens: (await accounts.listTokens(user.id)).map(tokenJson) };
    }
    case 'block list':
    case 'block lift':
      return withLimits(blocks, values.redis ?? (env.REDIS_URL || undefined), (limits) => runBlockCommand(limits, command === 'block list' ? 'list' : 'lift', values.ip, now));
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** The limits' store the servers use: the shared Redis when there is one (--redis or REDIS_URL), else the database. */
async function withLimits<T>(blocks: BlocksStore, url: string | undefined, use: (limits: LimitStore) => Promise<T>): Promise<T> {
  if (url === undefined) return use(new MemoryLimitStore(blocks));
  const redis = await openRedis(url);
  try {
    return await use(new RedisLimitStore(redis));
  } finally {
    redis.disconnect();
  }
}

/**
 * The servers' database: --data (SQLite), or --database, else DATABASE_URL (PostgreSQL). A flag
 * wins over the environment variable; the two flags together are a mistake, refused.
 */
function database(values: Values, env: Env): { data: string } | { url: string } {
  const data = values.data?.trim() || undefined;
  const flag = values.database?.trim() || undefined;
  if (data !== undefined && flag !== undefined) {
    throw new UsageError('give --data DIR (SQLite) or --database URL (PostgreSQL), not both: the servers use one or the other');
  }
  if (data !== undefined) return { data: checkedDataDir(data) };
  const url = flag ?? (env.DATABASE_URL?.trim() || undefined);
  if (url === undefined) throw new UsageError('--data DIR or --database URL is required (or DATABASE_URL in the environment)');
  if (!/^postgres(ql)?:\/\//.test(url)) {
    // The environment's value is not repeated: it may carry a password.
    throw new UsageError(
      flag === undefined ? 'DATABASE_URL must be a postgres://USER@HOST:PORT/DB URL' : `--database must be a postgres://USER@HOST:PORT/DB URL, got ${url}`,
    );
  }
  return { url };
}

/** A mistyped --data must not quietly become a new, empty database. */
function checkedDataDir(data: string): string {
  const dir = resolve(data);
  const problem = !existsSync(dir)
    ? "does not exist; give the directory the server uses (it is created by the server's first start)"
    : statSync(dir).isDirectory()
      ? null
      : 'is not a directory';
  if (problem !== null) throw new UsageError(`--data ${dir} ${problem}`);
  return dir;
}

/** Opens the database, runs the command on it, closes it. */
async function runOn(where: { data: string } | { url: string }, command: (stores: AdminStores) => Promise<object>): Promise<object> {
  if ('data' in where) {
    const db = openDatabase(where.data);
    try {
      return await command({ accounts: new SqliteAccounts(db), blocks: new SqliteBlocks(db) });
    } finally {
      db.close();
    }
  }
  // Loaded only then: the command on SQLite never loads the PostgreSQL driver.
  const [{ openPostgres }, { PgAccounts }, { PgBlocks }] = await Promise.all([
    import('../db/postgres/connect.ts'),
    import('../store/postgres/accounts.ts'),
    import('../store/postgres/blocks.ts'),
  ]);
  const pg = await openPostgres(where.url, { maxConnections: 2 });
  try {
    return await command({ accounts: new PgAccounts(pg), blocks: new PgBlocks(pg) });
  } finally {
    await pg.close();
  }
}

/**
 * Runs the admin command line `argv` (what follows `npm run admin --`) as the command does, its lines written to
 * `out`: answers the exit code. server/admin.ts runs it on the process's own; tests run it in their process.
 */
export async function adminMain(argv: string[], env: Env, out: AdminOutput): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    out.error(`admin: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out.log(ADMIN_HELP);
    return 0;
  }
  try {
    out.log(JSON.stringify(await runOn(database(values, env), (stores) => run(stores, positionals.join(' '), values, env))));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      out.error(`admin: ${err.message}\n${USAGE}`);
      return 2;
    }
    // A refused rule (ApiError) or a database that cannot be used (busy, read-only, unreachable, not a Shelf database).
    out.error(`admin: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
