import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../server/store/sqlite/index.ts';
import type { Store } from '../../server/store/store.ts';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shelf-idem-'));
  store = openSqliteStore(dir);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW = 1_800_000_000_000;
const TTL = 24 * 60 * 60_000;

/**
 * Another instance in the middle of a write: a second connection, on its own thread, that
 * has run `sql` and holds the write lock for `holdMs` before it commits. Answers once it holds it.
 */
function writeElsewhere(dbPath: string, sql: string, params: unknown[], holdMs: number): Promise<Worker> {
  const worker = new Worker(
    `
    const { workerData, parentPort } = require('node:worker_threads');
    const Database = require(workerData.driver);
    const db = new Database(workerData.dbPath);
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN IMMEDIATE');
    db.prepare(workerData.sql).run(...workerData.params);
    parentPort.postMessage('holding');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
    db.exec('COMMIT');
    db.close();
    `,
    {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), dbPath, sql, params, holdMs },
    },
  );
  return new Promise((resolve, reject) => {
    worker.once('message', () => resolve(worker));
    worker.once('error', reject);
  });
}

const exitOf = (worker: Worker): Promise<unknown> => new Promise((resolve) => worker.once('exit', resolve));

describe('a database shared by several instances', () => {
  it('makes an Idempotency-Key claim wait for one another connection is committing, and see it', async () => {
    const user = await store.accounts.createUser({ name: 'I', email: 'i@example.com', plan: 'pro' }, NOW);
    const claim = 'INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, NULL, NULL, ?)';
    const exited = exitOf(await writeElsewhere(join(dir, 'shelf.db'), claim, [user.id, 'k1', 'fp', NOW], 300));
    // Had this claim read before taking the write lock, it would have found the key free,
    // then failed with SQLITE_BUSY once the other claim committed.
    expect(await store.idempotency.begin(user.id, 'k1', 'fp', NOW + 1, TTL)).toEqual({ state: 'in-flight' });
    await exited;
    expect(await store.idempotency.begin(user.id, 'k2', 'fp', NOW + 1, TTL)).toEqual({ state: 'new' });
  });

  it('makes any transaction that reads, then writes, wait its turn rather than fail', async () => {
    const user = await store.accounts.createUser({ name: 'T', email: 't@example.com', plan: 'pro' }, NOW);
    const other = 'INSERT INTO users (id, name, email, plan, status, created_at) VALUES (?, ?, ?, ?, ?, ?)';
    const exited = exitOf(await writeElsewhere(join(dir, 'shelf.db'), other, ['usr_other', 'O', 'o@example.com', 'pro', 'active', NOW], 300));
    // Counts the user's active tokens, then inserts: one transaction.
    const input = { userId: user.id, name: 'n', hash: 'h'.repeat(64), scopes: [], expiresAt: null };
    expect(await store.accounts.createToken(input, 10, NOW)).toMatchObject({ userId: user.id });
    await exited;
    expect(await store.accounts.countUsers()).toBe(2);
  });
});
