import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES, type Scope } from '../../lib/api/scopes.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { LINK_CHECK_DEFAULTS, type ServerConfig } from '../../server/config.ts';
import type { DepsOptions } from '../../server/deps.ts';
import { type RunningServer, startServer } from '../../server/server.ts';
import { createDatabase, startPostgres } from './postgres.ts';

export interface TestServer {
  server: RunningServer;
  baseUrl: string;
  dataDir: string;
  /** A fresh Pro (or free) user with a token of the given scopes (default: all). */
  user(options?: { scopes?: Scope[]; plan?: 'pro' | 'free'; expiresAt?: number | null }): Promise<TestUser>;
  /** Moves the server's clock (needs testClock). */
  advance(ms: number): Promise<number>;
  close(): Promise<void>;
}

export interface TestUser {
  userId: string;
  token: string;
  tokenId: string;
  api: Api;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

export type Api = (
  method: string,
  path: string,
  options?: { body?: unknown; headers?: Record<string, string>; token?: string | null; ip?: string },
) => Promise<ApiResponse>;

let ipCounter = 0;
/** A distinct client address per test user, so that per-IP limits of one test do not touch another. */
export const nextIp = (): string => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

export function apiFor(baseUrl: string, defaults: { token?: string; ip?: string }): Api {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? defaults.token : options.token;
    if (token) headers.Authorization ??= `Bearer ${token}`;
    const ip = options.ip ?? defaults.ip;
    if (ip) headers['X-Forwarded-For'] = ip;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: the test sees the text
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
}

/**
 * A real server on a free port with a temporary data directory; X-Forwarded-For is trusted so each user gets its own address.
 * In the `server-redis` project its limits and test clock are in that project's Redis (SHELF_TEST_REDIS_URL); in the
 * `server-postgres` project its data is in a new database of that project's cluster (SHELF_TEST_POSTGRES_URL).
 */
export async function startTestServer(overrides: Partial<ServerConfig> = {}, options: DepsOptions = {}): Promise<TestServer> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'shelf-test-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    testClock: true,
    allowPrivateFetch: false,
    proxyHops: 1,
    raiseLimits: false,
    redisUrl: process.env.SHELF_TEST_REDIS_URL ?? null,
    databaseUrl: overrides.databaseUrl === undefined ? await projectDatabase() : overrides.databaseUrl,
    jobLeaseMs: 30_000,
    ipv6Prefix: 64,
    // As under --test-clock: only the tests of the link checker turn it on.
    linkCheck: { ...LINK_CHECK_DEFAULTS, enabled: false },
    ...overrides,
  }, options);
  const { store, clock } = server.deps;
  return {
    server,
    baseUrl: server.baseUrl,
    dataDir,
    async user(options = {}) {
      const user = await store.accounts.createUser({ name: 'Test user', email: 'test@example.com', plan: 'pro' }, clock.now());
      const { record, token } = await issueToken(
        store.accounts,
        { userId: user.id, name: 'test', scopes: options.scopes ?? [...ALL_SCOPES], expiresAt: options.expiresAt ?? null },
        clock.now(),
      );
      if (options.plan === 'free') await store.accounts.setPlan(user.id, 'free');
      return { userId: user.id, token, tokenId: record.id, api: apiFor(server.baseUrl, { token, ip: nextIp() }) };
    },
    async advance(ms) {
      const res = await fetch(`${server.origin}/__test__/clock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ advanceMs: ms }),
      });
      return ((await res.json()) as { now: number }).now;
    },
    async close() {
      await server.close();
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * As startTestServer, but on the server-postgres project in a PostgreSQL cluster of its own: for tests
 * of the store's version, which there is the cluster's snapshot, moved by a write to any of its
 * databases (the other test files' among them).
 */
export async function startIsolatedTestServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  if (process.env.SHELF_TEST_POSTGRES_URL === undefined) return startTestServer(overrides);
  const cluster = await startPostgres();
  const t = await startTestServer({ ...overrides, databaseUrl: await cluster.createDatabase() });
  return {
    ...t,
    async close() {
      await t.close();
      await cluster.stop();
    },
  };
}

/** Whether this run is the `server-postgres` project, whose test servers keep their data in PostgreSQL. */
export const onPostgresProject = process.env.SHELF_TEST_POSTGRES_URL !== undefined;

/** On the `server-postgres` project, a new database of its cluster with the schema in place (a copy of the run's migrated one); else null (SQLite). */
export async function projectDatabase(): Promise<string | null> {
  const cluster = process.env.SHELF_TEST_POSTGRES_URL;
  return cluster === undefined ? null : createDatabase(cluster, process.env.SHELF_TEST_POSTGRES_TEMPLATE);
}

/** A second connection to a test server's database, for tests that write fixtures in bulk or read raw rows. */
export const openDb = (t: TestServer): Database.Database => new Database(join(t.dataDir, 'shelf.db'));
