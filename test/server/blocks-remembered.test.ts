import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../server/store/sqlite/index.ts';
import type { Store } from '../../server/store/store.ts';

let dir: string;
let store: Store;
let other: Database.Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shelf-blocks-'));
  store = openSqliteStore(dir);
  other = new Database(join(dir, 'shelf.db')); // the admin command's connection
});
afterEach(() => {
  other.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const T0 = 1_800_000_000_000;
const KEY = 'block:203.0.113.7';

describe("the server's block check, read once per store version", () => {
  it('sees a block this process makes and lifts within the same turn', async () => {
    expect(await store.blocks.blockedUntil(KEY, T0)).toBeNull();
    await store.blocks.block(KEY, T0 + 60_000);
    expect(await store.blocks.blockedUntil(KEY, T0)).toBe(T0 + 60_000);
    expect(await store.blocks.unblock(KEY)).toBe(true);
    expect(await store.blocks.blockedUntil(KEY, T0)).toBeNull();
  });

  it("sees another connection's block and lift from the next turn on", async () => {
    expect(await store.blocks.blockedUntil(KEY, T0)).toBeNull();
    other.prepare('INSERT INTO ip_blocks (key, until) VALUES (?, ?)').run(KEY, T0 + 60_000);
    await nextTurn();
    expect(await store.blocks.blockedUntil(KEY, T0)).toBe(T0 + 60_000);
    other.prepare('DELETE FROM ip_blocks WHERE key = ?').run(KEY);
    await nextTurn();
    expect(await store.blocks.blockedUntil(KEY, T0)).toBeNull();
  });

  it('lets a remembered block end at its time, with nothing written meanwhile', async () => {
    await store.blocks.block(KEY, T0 + 60_000);
    await nextTurn();
    expect(await store.blocks.blockedUntil(KEY, T0 + 59_999)).toBe(T0 + 60_000);
    expect(await store.blocks.blockedUntil(KEY, T0 + 60_000)).toBeNull();
    expect(await store.blocks.blockedUntil('block:198.51.100.1', T0)).toBeNull();
  });
});
