import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Bookmark } from '../../lib/api/bookmarks.ts';
import { Collection } from '../../lib/api/collections.ts';
import { MINUTE } from '../../server/clock.ts';
import { writeExport, writeExportChunks } from '../../server/interchange/write.ts';
import { storeSource } from '../../server/jobs/export-source.ts';
import { generatedLibrary } from '../support/export-library.ts';
import { dataOf } from '../support/expect.ts';
import { readImport } from '../support/import-files.ts';
import { openRawDb } from '../support/raw-db.ts';
import { type TestServer, type TestUser, startTestServer } from '../support/server.ts';
import { download, exportLibrary, importFile, librarySnapshot } from './jobs-fixtures.ts';

let t: TestServer;
let u: TestUser;
const EXPORTED_AT = Date.UTC(2026, 2, 3, 4, 5, 6);
let exports = 0;
/** A minute apart, as the limit on export requests wants. */
const nextExportAt = (): number => EXPORTED_AT + 2 * MINUTE * exports++;

beforeAll(async () => {
  t = await startTestServer();
  u = await t.user();
  // More bookmarks than an export reads at once, in folders, Unsorted, and a trashed folder (whose bookmarks show as Unsorted).
  const job = await importFile(t, u, await writeExport('json', generatedLibrary(2600)));
  expect(job.status, job.errorMessage).toBe('completed');
  // Two sibling folders of one name are one folder of the file, their bookmarks merged in library order.
  const twins = [];
  for (let i = 0; i < 2; i += 1) twins.push(dataOf(await u.api('POST', '/collections', { body: { name: 'Twin' } }), Collection, 201));
  for (let i = 0; i < 6; i += 1) {
    const body = { url: `https://twin.example/${i}`, collectionId: twins[i % 2]?.id };
    expect((await u.api('POST', '/bookmarks', { body })).status).toBe(201);
    await t.advance(1000);
  }
  const gone = dataOf(await u.api('POST', '/collections', { body: { name: 'Gone' } }), Collection, 201);
  const inGone = dataOf(await u.api('POST', '/bookmarks', { body: { url: 'https://gone.example/', collectionId: gone.id } }), Bookmark, 201);
  const trashed = dataOf(await u.api('POST', '/bookmarks', { body: { url: 'https://trashed.example/' } }), Bookmark, 201);
  expect((await u.api('DELETE', `/bookmarks/${trashed.id}`)).status).toBe(200);
  expect((await u.api('DELETE', `/collections/${gone.id}`)).status).toBe(200);
  // Trashing the folder trashed its bookmark; back out of the trash alone, it is in a folder that is not active.
  const db = openRawDb({ dataDir: t.dataDir, databaseUrl: t.server.deps.config.databaseUrl });
  await db.run('UPDATE bookmarks SET deleted_at = NULL WHERE id = ?', inGone.id);
  await db.close();
}, 120_000);
afterAll(async () => {
  await t.close();
});

/** An export run by the server with its clock held at `at`, so that the file's dates are known. */
async function serverExport(format: 'json' | 'csv' | 'html', at: number): Promise<Buffer> {
  const held = vi.spyOn(t.server.deps.clock, 'now').mockReturnValue(at);
  try {
    const { job } = await exportLibrary(t, u, format);
    // The bytes: Response.text() would drop the CSV's byte order mark.
    return Buffer.from(await (await download(t, u, job.id)).arrayBuffer());
  } finally {
    held.mockRestore();
  }
}

describe('an export read from the store page by page', () => {
  it.each(['json', 'csv', 'html'] as const)('%s is byte for byte what the writer makes of the whole library at once', async (format) => {
    // Shelf JSON round-trips exactly, so the server's own JSON export is the library as one value.
    const library = readImport(await serverExport('json', nextExportAt()));
    const at = nextExportAt();
    expect(library.bookmarks.length).toBe(2607);
    expect(library.collections.filter((c) => c.path.join('/') === 'Twin')).toHaveLength(1);
    expect(library.bookmarks.filter((b) => b.url === 'https://gone.example/')).toMatchObject([{ collectionPath: [] }]);
    expect((await serverExport(format, at)).equals(Buffer.from(await writeExport(format, { ...library, exportedAt: at })))).toBe(true);
  });

  it.each(['json', 'csv', 'html'] as const)('%s is the same read in pages of any size', async (format) => {
    const read = async (pageSize: number): Promise<string> => {
      const source = await storeSource(t.server.deps.store.jobs, u.userId, EXPORTED_AT, async () => undefined, pageSize);
      const parts: string[] = [];
      for await (const chunk of writeExportChunks(format, source)) parts.push(chunk);
      return parts.join('');
    };
    const whole = await read(10_000);
    expect(await read(7)).toBe(whole);
    // Pages of one: the source's paging, which every format reads the same way, once (2,607 reads: on PostgreSQL
    // under load, three of them took longer than a test may).
    if (format === 'json') expect(await read(1)).toBe(whole);
  });
});

describe('an import read a chunk at a time', () => {
  it('of an HTML file many chunks long gives the library its JSON twin gives', async () => {
    const library = generatedLibrary(1500);
    const html = await writeExport('html', library);
    expect(html.length).toBeGreaterThan(4 * 64 * 1024);
    // Held, so that the bookmarks without a date get the same one in both.
    const held = vi.spyOn(t.server.deps.clock, 'now').mockReturnValue(EXPORTED_AT);
    try {
      const [fromHtml, fromJson] = [await t.user(), await t.user()];
      expect(await importFile(t, fromHtml, html)).toMatchObject({ status: 'completed', result: { imported: 1500, skipped: 0 } });
      expect(await importFile(t, fromJson, await writeExport('json', library))).toMatchObject({ status: 'completed', result: { imported: 1500 } });
      expect(await librarySnapshot(fromHtml.api)).toEqual(await librarySnapshot(fromJson.api));
    } finally {
      held.mockRestore();
    }
  }, 60_000);
});
