import type Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import type { ServerConfig } from '../../server/config.ts';
import { type RawDb, openRawDb } from './raw-db.ts';
import { type TestServer, type TestUser, openDb, startTestServer } from './server.ts';

export interface ServerWithDb {
  t: TestServer;
  /** A connection to the server's database, for what the API does not show. */
  db: Database.Database;
}

/** The test file's real server, started before its tests and closed after them, with a database connection: `receive` gets both once started. */
export function withServerAndDb(receive: (started: ServerWithDb) => void, overrides: Partial<ServerConfig> = {}): void {
  let started: ServerWithDb | undefined;
  beforeAll(async () => {
    const t = await startTestServer(overrides);
    started = { t, db: openDb(t) };
    receive(started);
  });
  afterAll(async () => {
    started?.db.close();
    await started?.t.close();
  });
}

/** As withServerAndDb, with a connection to the server's database whichever backend it is (SQLite, or PostgreSQL in the `server-postgres` project). */
export function withServerAndRawDb(receive: (started: { t: TestServer; db: RawDb }) => void, overrides: Partial<ServerConfig> = {}): void {
  let started: { t: TestServer; db: RawDb } | undefined;
  beforeAll(async () => {
    const t = await startTestServer(overrides);
    started = { t, db: openRawDb({ dataDir: t.dataDir, databaseUrl: t.server.deps.config.databaseUrl }) };
    receive(started);
  });
  afterAll(async () => {
    await started?.db.close();
    await started?.t.close();
  });
}

/** The test file's real server and one user of it, started before its tests, the server closed after them. */
export function withServerAndUser(receive: (started: { t: TestServer; u: TestUser }) => void, overrides: Partial<ServerConfig> = {}): void {
  let t: TestServer | undefined;
  beforeAll(async () => {
    t = await startTestServer(overrides);
    receive({ t, u: await t.user() });
  });
  afterAll(() => t?.close());
}
