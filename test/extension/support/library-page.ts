import { cleanup } from '@testing-library/react';
import { type UserEvent, userEvent } from '@testing-library/user-event';
import type Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setRuntime } from '../../../components/messenger.ts';
import { type TestServer, type TestUser, openDb, startTestServer } from '../../support/server.ts';
import { type TestBackground, createTestBackground } from './background.ts';
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

export interface SignedInLibrary extends LibraryPageServer {
  bg: TestBackground;
  u: TestUser;
  user: UserEvent;
}

/**
 * A library page's component tests with a fresh background signed in to a new user before each test, its
 * requests so far forgotten, and torn down after. Read the fields inside tests and hooks.
 */
export function signedInLibrary(viewport: { width: number; height: number }): SignedInLibrary {
  const library = libraryPageServer(viewport) as SignedInLibrary;
  beforeEach(async () => {
    fakeBrowser.reset();
    library.bg = createTestBackground();
    setRuntime(library.bg.runtime);
    library.user = userEvent.setup();
    library.u = await library.t.user();
    await library.t.advance(2 * 60_000);
    await library.bg.services.account.signIn(library.t.baseUrl, library.u.token);
    await library.bg.idle();
    library.bg.requests.length = 0;
  });
  afterEach(async () => {
    cleanup();
    await library.bg.idle();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  return library;
}
