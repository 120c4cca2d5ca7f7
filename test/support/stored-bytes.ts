import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openRawDb } from './raw-db.ts';
import type { TestServer } from './server.ts';

/** Uploaded files, or export artifacts: the two kinds of bytes a store keeps. */
export type FileSpace = 'uploads' | 'exports';

const storeOf = (t: Pick<TestServer, 'server'>, space: FileSpace) => (space === 'uploads' ? t.server.deps.store.files : t.server.deps.store.exports);

/** Whether a test server's store keeps the bytes of this file (on disk or in PostgreSQL): the same question on either backend. */
export async function bytesKept(t: Pick<TestServer, 'server'>, fileId: string, space: FileSpace = 'uploads'): Promise<boolean> {
  const file = await storeOf(t, space).open(fileId);
  file?.stream.destroy();
  return file !== null;
}

/**
 * Every file of a space the store holds, whole or half written, however recent: the entries of
 * `<dataDir>/files` or `<dataDir>/exports` on SQLite, the header rows on PostgreSQL. (The store's
 * own list() leaves out what another instance may still be writing.)
 */
export async function storedFileNames(t: Pick<TestServer, 'server' | 'dataDir'>, space: FileSpace): Promise<string[]> {
  const { databaseUrl } = t.server.deps.config;
  if (databaseUrl === null) {
    const dir = join(t.dataDir, space === 'uploads' ? 'files' : 'exports');
    return existsSync(dir) ? readdirSync(dir) : [];
  }
  const db = openRawDb({ dataDir: t.dataDir, databaseUrl });
  try {
    return (await db.all<{ id: string }>('SELECT id FROM file_bytes WHERE space = ? ORDER BY id', space)).map((r) => r.id);
  } finally {
    await db.close();
  }
}
