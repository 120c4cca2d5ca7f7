import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openSqliteStore } from '../../server/store/sqlite/index.ts';
import type { Store } from '../../server/store/store.ts';

/**
 * A SQLite store in a temporary directory of its own for each test of the file
 * (opened before each, closed and removed after each); call at the file's top level.
 * `store()` is the current test's.
 */
export function tempSqliteStore(prefix: string): { store: () => Store } {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    store = openSqliteStore(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store: () => store };
}
