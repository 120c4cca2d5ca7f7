import type { TestServer } from './server.ts';

/** Whether a test server's store keeps the bytes of this file (on disk or in PostgreSQL): the same question on either backend. */
export async function bytesKept(t: Pick<TestServer, 'server'>, fileId: string): Promise<boolean> {
  const file = await t.server.deps.store.files.open(fileId);
  file?.stream.destroy();
  return file !== null;
}
