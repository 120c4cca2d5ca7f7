import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../server/store/sqlite/index.ts';
import type { Store } from '../../server/store/store.ts';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shelf-version-'));
  store = openSqliteStore(dir);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the store version, read at most once a turn of the event loop', () => {
  it('moves at once, within the same turn, when this process writes', async () => {
    const before = await store.version();
    const user = await store.accounts.createUser({ name: 'A', email: 'a@example.com', plan: 'pro' }, Date.now());
    const afterCreate = await store.version();
    expect(afterCreate).not.toBe(before);
    await store.accounts.setPlan(user.id, 'free');
    expect(await store.version()).not.toBe(afterCreate);
  });

  it('stays put when nothing is written', async () => {
    const before = await store.version();
    await store.accounts.createUser({ name: 'A', email: 'a@example.com', plan: 'pro' }, Date.now());
    const written = await store.version();
    await nextTurn();
    expect(await store.version()).toBe(written);
    expect(written).not.toBe(before);
  });

  it('sees a commit of another connection (the admin command) from the next turn on', async () => {
    await store.accounts.createUser({ name: 'A', email: 'a@example.com', plan: 'pro' }, Date.now());
    await nextTurn();
    const before = await store.version();
    const other = new Database(join(dir, 'shelf.db'));
    try {
      other.prepare("UPDATE users SET plan = 'free'").run();
      await nextTurn();
      expect(await store.version()).not.toBe(before);
    } finally {
      other.close();
    }
  });
});
