import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onPostgresProject, startTestServer } from '../support/server.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'shelf-modes-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

const mode = (path: string) => statSync(path).mode & 0o777;

/** Starts a server on the directory, answering what it wrote on stderr meanwhile and whether its first user is still there. */
async function startOn(dataDir: string): Promise<{ notices: string[] }> {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const server = await startTestServer({ dataDir });
  try {
    return { notices: errors.mock.calls.map((args) => args.join(' ')) };
  } finally {
    await server.close();
    errors.mockRestore();
  }
}

// With --database the server keeps nothing in a data directory: PostgreSQL's own access control guards the data.
describe.skipIf(onPostgresProject)('a data directory made by an older version is made private at start', () => {
  it('makes directories 0700 and files 0600, recursively, and says so once', async () => {
    const dataDir = join(root, 'data');
    await startOn(dataDir);
    // As an older version left it: world-readable.
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'shelf.db'), 0o644);
    mkdirSync(join(dataDir, 'files', 'old'), { recursive: true, mode: 0o755 });
    chmodSync(join(dataDir, 'files'), 0o755);
    writeFileSync(join(dataDir, 'files', 'old', 'upload'), 'x', { mode: 0o644 });
    // A link's target is outside the server's keeping: neither followed nor changed.
    const outside = join(root, 'elsewhere.txt');
    writeFileSync(outside, 'not ours', { mode: 0o644 });
    symlinkSync(outside, join(dataDir, 'link'));

    const { notices } = await startOn(dataDir);

    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'shelf.db'))).toBe(0o600);
    expect(mode(join(dataDir, 'files'))).toBe(0o700);
    expect(mode(join(dataDir, 'files', 'old'))).toBe(0o700);
    expect(mode(join(dataDir, 'files', 'old', 'upload'))).toBe(0o600);
    expect(mode(outside)).toBe(0o644);
    expect(notices).toEqual([
      `shelf server: made 5 entries of ${dataDir} private to this user (directories 0700, files 0600)`,
    ]);

    // Nothing left to change: nothing said.
    expect((await startOn(dataDir)).notices).toEqual([]);
  });

  it('says nothing for a new directory', async () => {
    expect((await startOn(join(root, 'new'))).notices).toEqual([]);
  });
});
