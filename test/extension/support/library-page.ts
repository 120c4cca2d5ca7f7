import type Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import { type TestServer, openDb, startTestServer } from '../../support/server.ts';
import { closeDom } from './dom.ts';

export interface LibraryPageServer {
  t: TestServer;
  /** A second connection to the server's database, for fixtures written in bulk. */
  db: Database.Database;
}

/**
 * The file-wide setup of a library page's component tests (side panel, options
 * sections): the real server in-process, a database connection for fixtures, and
 * a layout size for scroll boxes, since happy-dom lays nothing out and the
 * virtualised lists would show no rows. Read the fields inside tests and hooks.
 */
export function libraryPageServer(viewport: { width: number; height: number }): LibraryPageServer {
  const server = {} as LibraryPageServer;
  beforeAll(async () => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => viewport.height });
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => viewport.width });
    server.t = await startTestServer();
    server.db = openDb(server.t);
  });
  afterAll(async () => {
    server.db.close();
    await server.t.close();
    await closeDom();
  });
  return server;
}
